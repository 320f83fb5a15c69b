// Focus paths, the capture core and tasks are AnnaFocusPaths' (which re-exports Anna), so
// an app that adopts this adapter writes one import.
@_exported import AnnaFocusPaths
