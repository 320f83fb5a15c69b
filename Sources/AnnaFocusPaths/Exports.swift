// Focus paths report through Anna's service and read its events and values, so an app
// that imports AnnaFocusPaths sees Anna's API as well and writes one import.
@_exported import Anna
