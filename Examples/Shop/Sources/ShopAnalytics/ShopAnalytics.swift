// The generated factories and tasks (shop.anna.swift) are added to this module by
// AnnaPlugin. The spec declares tasks, so the app uses focus paths: AnnaFocusPaths, which
// re-exports Anna.
@_exported import AnnaFocusPaths
