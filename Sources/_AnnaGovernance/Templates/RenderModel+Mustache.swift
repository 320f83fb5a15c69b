import Mustache
import _AnnaGeneratorCore

// Templates look values up by name. Answering with a switch instead of letting
// Mustache reflect each model with Mirror makes rendering several times faster.

extension RenderModel: MustacheParent {
    /// The value a template names.
    public func child(named name: String) -> Any? {
        switch name {
        case "sourceFileName": sourceFileName
        case "imports": imports
        case "access": access
        case "enums": enums
        case "objects": objects
        case "events": events
        case "hasEvents": hasEvents
        case "metadata": metadata
        case "hasMetadata": hasMetadata
        case "hasScreens": hasScreens
        case "screenEnums": screenEnums
        case "screens": screens
        case "screenMetadata": screenMetadata
        case "hasScreenMetadata": hasScreenMetadata
        case "propertySets": propertySets
        case "hasGlobals": hasGlobals
        case "globalKeys": globalKeys
        case "hasTasks": hasTasks
        case "taskSetName": taskSetName
        case "taskSetNameLiteral": taskSetNameLiteral
        case "taskSetAvailability": taskSetAvailability
        case "tasks": tasks
        default: nil
        }
    }
}

extension RenderModel.EnumModel: MustacheParent {
    /// The value a template names.
    public func child(named name: String) -> Any? {
        switch name {
        case "docLines": docLines
        case "name": self.name
        case "indent": indent
        case "cases": cases
        default: nil
        }
    }
}

extension RenderModel.CaseModel: MustacheParent {
    /// The value a template names.
    public func child(named name: String) -> Any? {
        name == "declaration" ? declaration : nil
    }
}

extension RenderModel.EventModel: MustacheParent {
    /// The value a template names.
    public func child(named name: String) -> Any? {
        switch name {
        case "isFirst": isFirst
        case "docLines": docLines
        case "availability": availability
        case "isProperty": isProperty
        case "name": self.name
        case "arguments": arguments
        case "hasRequiredParameters": hasRequiredParameters
        case "parametersKeyword": parametersKeyword
        case "requiredEntries": requiredEntries
        case "optionalAssignments": optionalAssignments
        case "nameLiteral": nameLiteral
        case "metadataArgument": metadataArgument
        default: nil
        }
    }
}

extension RenderModel.PropertySetModel: MustacheParent {
    /// The value a template names.
    public func child(named name: String) -> Any? {
        switch name {
        case "typeName": typeName
        case "enums": enums
        case "properties": properties
        default: nil
        }
    }
}

extension RenderModel.PropertyModel: MustacheParent {
    /// The value a template names.
    public func child(named name: String) -> Any? {
        switch name {
        case "isFirst": isFirst
        case "docLines": docLines
        case "name": self.name
        case "valueType": valueType
        case "initializer": initializer
        default: nil
        }
    }
}

extension RenderModel.GlobalKeyModel: MustacheParent {
    /// The value a template names.
    public func child(named name: String) -> Any? {
        switch name {
        case "docLines": docLines
        case "name": self.name
        case "nameLiteral": nameLiteral
        default: nil
        }
    }
}

extension RenderModel.MetadataModel: MustacheParent {
    /// The value a template names.
    public func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "initializer": initializer
        default: nil
        }
    }
}

extension RenderModel.TaskModel: MustacheParent {
    /// The value a template names.
    public func child(named name: String) -> Any? {
        switch name {
        case "matchLiteral": matchLiteral
        case "sourceLiteral": sourceLiteral
        case "parameterName": parameterName
        case "body": body
        case "separator": separator
        default: nil
        }
    }
}

extension RenderModel.ObjectModel: MustacheParent {
    /// The value a template names.
    public func child(named name: String) -> Any? {
        switch name {
        case "docLines": docLines
        case "name": self.name
        case "properties": properties
        case "initializerDocLines": initializerDocLines
        case "arguments": arguments
        case "assignments": assignments
        case "hasRequiredProperties": hasRequiredProperties
        case "propertiesKeyword": propertiesKeyword
        case "requiredEntries": requiredEntries
        case "optionalAssignments": optionalAssignments
        case "decodings": decodings
        case "initializerCall": initializerCall
        case "codingKeys": codingKeys
        default: nil
        }
    }
}

extension RenderModel.ObjectPropertyModel: MustacheParent {
    /// The value a template names.
    public func child(named name: String) -> Any? {
        switch name {
        case "docLines": docLines
        case "declaration": declaration
        default: nil
        }
    }
}
