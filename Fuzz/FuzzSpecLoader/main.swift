// libFuzzer target for the spec loader: YAML bytes in, diagnostics or Swift out.
//
// A crash is a finding. Besides traps, it asserts what callers of the generator rely on:
// - every diagnostic points into the file: line >= 1 and column >= 1, in the file given;
// - a spec comes back only when no diagnostic is an error;
// - when `check` gives a spec, translation and `generate` succeed and render source.
//
// Built with -parse-as-library: libFuzzer provides main().

import _AnnaGeneratorCore

private let file = "fuzz.anna.yml"
/// Built once: parsing the templates on every input would dominate the run.
private let generator = AnnaGenerator()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let diagnostics = generator.lint(bytes, file: file)

    for diagnostic in diagnostics {
        if diagnostic.location.line < 1 || diagnostic.location.column < 1 || diagnostic.location.file != file {
            fatalError("diagnostic outside the file: \(diagnostic)")
        }
    }
    guard !diagnostics.contains(where: { $0.severity == .error }) else { return 0 }

    do {
        let (source, warnings) = try generator.generate(bytes, file: file)
        if source.isEmpty { fatalError("generate rendered nothing") }
        if warnings != diagnostics { fatalError("generate and lint disagree on the diagnostics") }
    } catch {
        fatalError("lint found no error but generate threw: \(error)")
    }
    return 0
}
