import ArgumentParser
import Foundation
import _AnnaGeneratorCore
import _AnnaGovernance

struct Docs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "docs",
        abstract: "Writes the tracking plan as Markdown (index.md and a page per spec) and as one self-contained index.html.",
        discussion: """
            The HTML page needs no network: styles, script and data are inline. It searches names, \
            descriptions and parameters, and filters by spec, consent category, PII and provider; \
            the filters live in the address's fragment (index.html#q=cart&pii=yes), so a filtered \
            view can be linked. Files are written only when their bytes change. Exit status: 0, or 2 \
            for an invalid spec or bad input.
            """
    )

    @Argument(help: "Tracking spec files or folders.")
    var paths: [String]

    @Option(help: "The folder to write into.")
    var output: String

    func run() throws {
        let specs = try loadSpecs(paths, command: "docs")
        let names = Generate.outputNames(for: specs.map(\.file)).mapValues { String($0.dropLast(".anna.swift".count)) }
        let docs = PlanDocs(pages: specs.map { PlanDocs.Page(spec: $0, name: names[$0.file] ?? $0.baseName) })
        var files = [("index.md", docs.indexMarkdown()), ("index.html", docs.html())]
        for page in docs.pages { files.append(("\(page.name).md", docs.markdown(page))) }
        for (name, contents) in files {
            let path = (output as NSString).appendingPathComponent(name)
            do {
                try AnnaGenerator.writeIfChanged(contents, to: path)
            } catch {
                FileHandle.standardError.write(Data("anna docs: error: cannot write \(path): \(error.localizedDescription)\n".utf8))
                throw ExitCode(2)
            }
        }
        print("anna docs: wrote \(files.count) files to \(output)")
    }
}
