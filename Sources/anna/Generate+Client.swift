import ArgumentParser
import Foundation
import _AnnaClientGenerator
import _AnnaGeneratorCore

extension Generate {
    /// `anna generate --language typescript|kotlin`: the same specs, validated the
    /// same way, written as NAME.anna.ts or NAME.anna.kt.
    func runClient(_ language: ClientLanguage) throws {
        let options = ClientOptions(naming: naming, kotlinPackage: kotlinPackage)
        let names = Self.outputNames(for: specs)
        var failed = false
        for spec in specs {
            do throws(SpecError) {
                let swiftName = names[spec] ?? AnnaGenerator.outputFileName(for: spec)
                let name = String(swiftName.dropLast(".swift".count)) + "." + language.fileExtension
                let path = outputFile ?? ((output ?? ".") as NSString).appendingPathComponent(name)
                let (warnings, written) = try AnnaGenerator().generate(
                    try AnnaGenerator.read(spec), file: spec, language: language, options: options,
                    writingTo: path, onlyComparing: check)
                report(warnings)
                if !accept(written, path: path, spec: spec) { failed = true }
            } catch {
                report(error.diagnostics)
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }

    /// Reports a failed write, or a file `--check` found out of date.
    /// - Returns: Whether the file is as it should be.
    func accept(_ written: Result<Bool, any Error>, path: String, spec: String) -> Bool {
        switch written {
        case .failure(let error):
            let doing = check ? "read" : "write"
            FileHandle.standardError.write(Data("\(path): error: cannot \(doing) the generated file: \(error)\n".utf8))
            return false
        case .success(true) where check:
            FileHandle.standardError.write(Data(
                "\(path):1:1: error: generated code is out of date with \(spec); run the same `anna generate` without --check to write it\n".utf8))
            return false
        case .success:
            return true
        }
    }
}
