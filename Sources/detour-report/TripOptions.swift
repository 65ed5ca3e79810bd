import ArgumentParser
import DetourCommandLine
import DetourCore
import DetourIO
import DetourJob
import DetourRender

/// The options every command that reads a trip takes.
struct TripOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The trip format (json or gpx) when the file name does not tell it; otherwise the first bytes decide.",
            valueName: "format"))
    var inputFormat: TripFormat?

    @OptionGroup var inputLimit: InputLimitOption

    @OptionGroup var diagnosticsOption: DiagnosticsOption
    /// How problems are written: `--diagnostics`.
    var diagnostics: DiagnosticPrinter.Format { diagnosticsOption.format }

    @Flag(
        name: .customLong("all-warnings"),
        help: "List every warning; text lists the first 20 of each kind and says how many more there are.")
    var allWarnings = false

    /// Where problems with `file` go, in the format asked for.
    func printer(file: String) -> DiagnosticPrinter {
        DiagnosticPrinter(file: file, format: diagnostics, allWarnings: allWarnings)
    }

    /// The reading limits, with the input size from `--max-input-mib` when given.
    var limits: ReadLimits { inputLimit.limits }

    /// The job these options ask for, making `formats`.
    func job(
        formats: [OutputFormat], today: CalendarDay, planner: Planner.Options, renderer: ReportRenderer,
        printing: RenderJob.Printing? = nil
    ) -> RenderJob {
        RenderJob(
            RenderJob.Options(
                formats: formats, today: today, planner: planner, renderer: renderer, inputFormat: inputFormat,
                limits: limits, printing: printing))
    }
}

extension TripFormat: ExpressibleByArgument {}
