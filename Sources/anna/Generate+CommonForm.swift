import ArgumentParser

extension Generate {
    /// `generate SPEC… --output DIR` or `generate SPEC --output-file FILE`, the forms
    /// the README, the scripts and the build plugin use, read without ArgumentParser:
    /// parsing a command reflects over every command type and searches the
    /// conformance tables, which cost more than generating a small spec. Anything
    /// else (another option, `--output=DIR`, a value that starts with `-`, `help`, a
    /// repeated option, an invalid combination) is `nil`, and ArgumentParser reads it
    /// as always, with its messages and usage.
    /// - Parameter arguments: The command line without the program's name.
    init?(commonForm arguments: [String]) {
        guard arguments.first == "generate" else { return nil }
        var specs: [String] = []
        var output: String?
        var outputFile: String?
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--output", "--output-file":
                guard output == nil, outputFile == nil, let value = rest.popFirst(), Self.isPlainValue(value) else { return nil }
                if argument == "--output" { output = value } else { outputFile = value }
            default:
                guard Self.isPlainValue(argument), argument != "help" else { return nil }
                specs.append(argument)
            }
        }
        guard !specs.isEmpty else { return nil }
        self.init()
        self.specs = specs
        self.output = output
        self.outputFile = outputFile
        self.templates = nil
        self.check = false
        self.language = .swift
        self.naming = .spec
        self.kotlinPackage = nil
        // The command's own rules (one of the two options; one spec for a file), so
        // that a combination they reject goes to ArgumentParser and its message.
        guard (try? validate()) != nil else { return nil }
    }

    /// A value ArgumentParser takes as it is: not empty, not an option or a flag.
    private static func isPlainValue(_ argument: String) -> Bool {
        !argument.isEmpty && !argument.hasPrefix("-")
    }
}
