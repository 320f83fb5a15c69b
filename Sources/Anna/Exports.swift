// The types build time and run time share (`ProviderProfile`, `FocusPattern`,
// `ParameterConstraint`) live in the leaf module AnnaRules, so the generator does not
// compile the runtime; apps see them through `import Anna`.
@_exported import AnnaRules
