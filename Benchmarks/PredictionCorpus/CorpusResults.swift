import Foundation

/// Every stroke of the corpus at every input rate and lead, drawn by every contender: the
/// measures, and the tables the benchmark prints.
public struct CorpusResults: Sendable {
    /// One case: a stroke class at an input rate and a lead.
    public struct Case: Sendable, Hashable {
        /// The stroke class's name.
        public var stroke: String
        /// Samples per second.
        public var rate: Double
        /// How far after each vblank predictions aim.
        public var lead: Duration
    }

    /// One contender's result in one case.
    public struct Entry: Sendable {
        /// The measures.
        public var metrics: PredictionMetrics
        /// The run they come from.
        public var run: PredictionRun
    }

    /// The input rates every stroke is sampled at.
    public static let rates: [Double] = [60, 120, 240]
    /// The leads predictions aim at.
    public static let leads: [Duration] = [.milliseconds(8), .milliseconds(16), .milliseconds(25)]

    /// The cases in table order.
    public let cases: [Case]
    /// The contenders in table order.
    public let contenders: [Contender]
    private let entries: [Case: [String: Entry]]

    /// Runs `strokes` at `rates` and `leads` for each of `contenders`.
    public init(strokes: [CorpusStroke] = StrokeCorpus.all, rates: [Double] = rates, leads: [Duration] = leads,
                contenders: [Contender] = Contender.all) {
        var cases: [Case] = []
        var entries: [Case: [String: Entry]] = [:]
        for stroke in strokes {
            for rate in rates {
                for lead in leads {
                    let key = Case(stroke: stroke.name, rate: rate, lead: lead)
                    cases.append(key)
                    for contender in contenders {
                        let run = PredictionRun(stroke: stroke, rate: rate, lead: lead, contender: contender)
                        entries[key, default: [:]][contender.name] = Entry(metrics: run.metrics, run: run)
                    }
                }
            }
        }
        self.cases = cases
        self.contenders = contenders
        self.entries = entries
    }

    /// `contender`'s result in `key`.
    public func entry(_ key: Case, _ contender: String) -> Entry {
        guard let entry = entries[key]?[contender] else { preconditionFailure("CorpusResults: no \(contender) in \(key)") }
        return entry
    }

    /// The alternative with the lowest mean error in `key` (ties to the first listed).
    public func bestAlternative(_ key: Case) -> String {
        let names = Contender.alternatives.map(\.name).filter { entries[key]?[$0] != nil }
        return names.min { entry(key, $0).metrics.mean < entry(key, $1).metrics.mean } ?? "none"
    }

    /// The largest amount by which `contender`'s error exceeds none's in the frames of `key`
    /// where the contact has been still for 50 ms (0 when there are none).
    public func stillExcess(_ key: Case, _ contender: String) -> Double {
        let drawn = entry(key, contender).run.frames, baseline = entry(key, Contender.none.name).run.frames
        return zip(drawn, baseline).filter { $0.0.settledStill }.map { $0.0.error - $0.1.error }.max() ?? 0
    }

    /// Every case where the default misses a target, a line each: its p95 worse than no
    /// prediction's, its mean over 10% above the best alternative's, its jitter above no
    /// prediction's on a stroke with position noise (`noisy`), or its error more than 2 px
    /// above no prediction's once the contact has been still for 50 ms.
    public func misses(noisy: Set<String>) -> [String] {
        var lines: [String] = []
        for key in cases {
            let name = "\(key.stroke), \(Int(key.rate)) Hz, \(Self.ms(key.lead)) ms"
            let none = entry(key, Contender.none.name).metrics, standard = entry(key, Contender.standard.name).metrics
            let best = bestAlternative(key), alternative = entry(key, best).metrics
            if standard.p95 > none.p95 { lines.append("\(name): p95 \(Self.cell(standard.p95)) > none \(Self.cell(none.p95))") }
            if standard.mean > alternative.mean * 1.1 {
                lines.append("\(name): mean \(Self.cell(standard.mean)) > 1.1 × \(best) \(Self.cell(alternative.mean))")
            }
            if noisy.contains(key.stroke), standard.jitter > none.jitter {
                lines.append("\(name): jitter \(Self.cell(standard.jitter)) > none \(Self.cell(none.jitter))")
            }
            let excess = stillExcess(key, Contender.standard.name)
            if excess > 2 { lines.append("\(name): \(Self.cell(excess)) px past a stop") }
        }
        return lines
    }

    private static func cell(_ value: Double) -> String { String(format: "%.2f", value) }
    private static func ms(_ lead: Duration) -> Int { Int(lead.components.attoseconds / 1_000_000_000_000_000 + lead.components.seconds * 1_000) }

    /// One Markdown table per stroke class: a row per input rate, lead and contender, with
    /// mean, p95, over- and under-prediction and jitter in pixels.
    public func detailTables() -> String {
        var text = ""
        for stroke in cases.map(\.stroke).reduce(into: [String](), { if !$0.contains($1) { $0.append($1) } }) {
            text += "### \(stroke)\n\n| input | ahead | predictor | mean | p95 | over | under | jitter |\n|---|---|---|---|---|---|---|---|\n"
            for key in cases where key.stroke == stroke {
                for contender in contenders {
                    let m = entry(key, contender.name).metrics
                    text += "| \(Int(key.rate)) Hz | \(Self.ms(key.lead)) ms | \(contender.name) | \(Self.cell(m.mean)) | \(Self.cell(m.p95)) | "
                        + "\(Self.cell(m.overPrediction)) | \(Self.cell(m.underPrediction)) | \(Self.cell(m.jitter)) |\n"
                }
            }
            text += "\n"
        }
        return text
    }

    /// One Markdown table, a row per case: none, the default and the best alternative
    /// (mean / p95 in pixels), and the default's jitter against none's.
    public func summaryTable() -> String {
        var text = "| stroke | input | ahead | none | default | best alternative | default jitter (none) |\n|---|---|---|---|---|---|---|\n"
        for key in cases {
            let none = entry(key, Contender.none.name).metrics, standard = entry(key, Contender.standard.name).metrics
            let best = bestAlternative(key), alternative = entry(key, best).metrics
            text += "| \(key.stroke) | \(Int(key.rate)) Hz | \(Self.ms(key.lead)) ms | \(Self.cell(none.mean)) / \(Self.cell(none.p95)) | "
                + "\(Self.cell(standard.mean)) / \(Self.cell(standard.p95)) | \(best): \(Self.cell(alternative.mean)) / \(Self.cell(alternative.p95)) | "
                + "\(Self.cell(standard.jitter)) (\(Self.cell(none.jitter))) |\n"
        }
        return text
    }
}
