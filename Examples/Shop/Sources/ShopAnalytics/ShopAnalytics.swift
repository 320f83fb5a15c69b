// The generated factories (shop.anna.swift) are added to this module by AnnaPlugin.
@_exported import Anna
