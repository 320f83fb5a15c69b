// The types build time and run time share live in the leaf module AnnaRules, so the
// generator does not compile the runtime. Apps see the event-side ones through
// `import Anna`; the focus-path ones (`FocusPattern`, `TaskValue`) come with
// AnnaFocusPaths.
@_exported import struct AnnaRules.ParameterConstraint
@_exported import struct AnnaRules.ProviderProfile
import AnnaRules
