extension FrameStatistics {
    private static func number(_ value: Double?) -> String {
        guard let value else { return "null" }
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// The summary and every record as JSON.
    public func json() -> String {
        let recordLines = records.map { r in
            "{\"frameID\":\(r.frameID),\"frameStart\":\(Self.number(r.frameStart)),\"presentTime\":\(Self.number(r.presentTime)),"
                + "\"displayedTime\":\(Self.number(r.displayedTime)),\"expectedDisplayTime\":\(Self.number(r.expectedDisplayTime)),\"msBetweenPresents\":\(Self.number(r.msBetweenPresents)),"
                + "\"msBetweenDisplayChange\":\(Self.number(r.msBetweenDisplayChange)),"
                + "\"msUntilDisplayed\":\(Self.number(r.msUntilDisplayed)),"
                + "\"msFrameStartToDisplay\":\(Self.number(r.msFrameStartToDisplay))}"
        }
        let histogramLines = histograms.keys.sorted().map { "\"\($0)\":[\(histograms[$0]!.map(String.init).joined(separator: ","))]" }
        return "{\"refreshPeriodMs\":\(Self.number(refreshPeriod * 1000)),\"targetIntervalMs\":\(Self.number(targetInterval * 1000)),"
            + "\"frames\":\(records.count),\"dropped\":\(droppedFrames),\"p50\":\(Self.number(p50)),\"p90\":\(Self.number(p90)),"
            + "\"p99\":\(Self.number(p99)),\"max\":\(Self.number(max)),\"hitchRatio\":\(Self.number(hitchRatio)),"
            + "\"stutterCount\":\(stutterCount),\"histograms\":{\(histogramLines.joined(separator: ","))},"
            + "\"records\":[\(recordLines.joined(separator: ","))]}\n"
    }

    /// One CSV row per present, PresentMon's column names; empty cells where a measure
    /// does not apply.
    public func csv() -> String {
        func cell(_ value: Double?) -> String { value.map { Self.number($0) } ?? "" }
        var lines = ["FrameID,FrameStart,PresentTime,DisplayedTime,Dropped,MsBetweenPresents,MsBetweenDisplayChange,"
            + "MsUntilDisplayed,DisplayLatency"]
        for r in records {
            lines.append([String(r.frameID), cell(r.frameStart), cell(r.presentTime), cell(r.displayedTime),
                          r.isDropped ? "1" : "0", cell(r.msBetweenPresents), cell(r.msBetweenDisplayChange),
                          cell(r.msUntilDisplayed), cell(r.msFrameStartToDisplay)].joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A frame-time plot: each displayed frame's display interval in milliseconds against
    /// its index, with lines at the target interval and at each multiple of the refresh
    /// period up to the largest interval, and the summary in the title.
    public func svg(width: Int = 720, height: Int = 280) -> String {
        let intervals = displayIntervals
        let top = Swift.max((max / (refreshPeriod * 1000)).rounded(.up), 2) * refreshPeriod * 1000
        let left = 48.0, right = Double(width) - 12, upper = 28.0, lower = Double(height) - 28
        func x(_ index: Int) -> Double { left + (right - left) * Double(index) / Double(Swift.max(intervals.count - 1, 1)) }
        func y(_ ms: Double) -> Double { lower - (lower - upper) * ms / top }
        func f(_ value: Double) -> String { String((value * 10).rounded() / 10) }
        var parts = ["<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" font-family=\"sans-serif\" font-size=\"11\">",
                     "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
                     "<text x=\"\(f(left))\" y=\"16\">display interval (ms) per frame — p50 \(Self.number(p50)), p99 \(Self.number(p99)), "
                         + "max \(Self.number(max)), hitches \(Self.number(hitchRatio)) ms/s, \(stutterCount) stutters, \(droppedFrames) dropped</text>"]
        var refresh = refreshPeriod * 1000
        while refresh <= top + 0.001 {
            parts.append("<line x1=\"\(f(left))\" x2=\"\(f(right))\" y1=\"\(f(y(refresh)))\" y2=\"\(f(y(refresh)))\" stroke=\"#ddd\"/>")
            parts.append("<text x=\"4\" y=\"\(f(y(refresh) + 4))\">\(Self.number(refresh))</text>")
            refresh += refreshPeriod * 1000
        }
        let target = y(targetInterval * 1000)
        parts.append("<line x1=\"\(f(left))\" x2=\"\(f(right))\" y1=\"\(f(target))\" y2=\"\(f(target))\" stroke=\"#2a2\" stroke-dasharray=\"6 3\"/>")
        let points = intervals.enumerated().map { "\(f(x($0.offset))),\(f(y($0.element)))" }.joined(separator: " ")
        parts.append("<polyline fill=\"none\" stroke=\"#c33\" stroke-width=\"1.2\" points=\"\(points)\"/>")
        parts.append("<text x=\"\(f(left))\" y=\"\(height - 8)\">frame →  (green: target \(Self.number(targetInterval * 1000)) ms; grey: refresh multiples)</text>")
        parts.append("</svg>")
        return parts.joined(separator: "\n") + "\n"
    }
}
