// Focus paths report through Anna's service and read its events and values, so an app
// that imports AnnaFocusPaths sees Anna's API as well and writes one import. The
// focus-path types of the leaf module AnnaRules, which the generator shares, come here.
@_exported import Anna
@_exported import struct AnnaRules.FocusPattern
@_exported import enum AnnaRules.TaskValue
