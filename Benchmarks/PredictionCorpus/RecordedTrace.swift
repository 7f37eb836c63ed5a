import Foundation

/// One sample of a recorded trace: when the X server's event says it happened, relative to
/// the injected path's time 0, and where the pointer was, in whole pixels.
public struct RecordedSample: Sendable, Hashable {
    /// Seconds since the host time at which the injected path's time 0 was.
    public var time: Double
    /// The event's window position, in pixels.
    public var position: SIMD2<Double>

    /// A sample at `time` seconds since path time 0, at `position`.
    public init(time: Double, position: SIMD2<Double>) {
        self.time = time
        self.position = position
    }
}

/// One corpus stroke as an X server delivered it: its path injected with XTest at `rate`
/// positions a second (each rounded to a whole pixel, path time t sent at host time
/// start + t), received on a window covering the screen as XInput 2 events through
/// `XInputSource`, whose timestamps are the server's milliseconds mapped onto the host's
/// `CLOCK_MONOTONIC`. Benchmarks/TraceRecorder records them (scripts/record-traces.sh).
public struct RecordedTrace: Sendable {
    /// The name of the corpus stroke that was injected.
    public var stroke: String
    /// Positions injected per second.
    public var rate: Double
    /// What was added to the stroke's path so that it fits the screen, in whole pixels.
    public var offset: SIMD2<Double>
    /// The samples as text: one line per sample, seconds since path time 0 (6 decimals),
    /// then x and y.
    public var text: String

    /// The trace of `stroke` injected at `rate` positions a second, moved by `offset`,
    /// with `text`'s samples.
    public init(stroke: String, rate: Double, offset: SIMD2<Double>, text: String) {
        self.stroke = stroke
        self.rate = rate
        self.offset = offset
        self.text = text
    }

    /// The samples `text` holds, in its order. A line that is not three numbers stops with
    /// a precondition failure: the text is generated, and a bad line is a broken file.
    public var samples: [RecordedSample] {
        text.split(whereSeparator: \.isNewline).map { line in
            let fields = line.split(separator: " ").compactMap { Double($0) }
            precondition(fields.count == 3, "RecordedTrace: \(stroke) at \(Int(rate)) Hz: bad line \"\(line)\"")
            return RecordedSample(time: fields[0], position: SIMD2(fields[1], fields[2]))
        }
    }

    /// The line `text` holds for a sample.
    public static func line(_ sample: RecordedSample) -> String {
        String(format: "%.6f %.0f %.0f", sample.time, sample.position.x, sample.position.y)
    }
}
