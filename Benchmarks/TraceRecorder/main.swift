// TraceRecorder: records the prediction corpus's X traces. Each stroke of
// `StrokeCorpus.injected` is injected into the X server with XTest in real time at 60, 120
// and 240 positions a second (whole pixels; path time t sent at host time start + t, moved
// to fit the screen where it does not), and received back on a window covering the screen
// through `XInputSource` (XInput 2 events, the server's millisecond timestamps mapped onto
// CLOCK_MONOTONIC). Each sample's time is relative to the host time of path time 0.
// Writes Benchmarks/PredictionCorpus/RecordedTraces.swift (or --output PATH) and prints
// what each trace holds.
//
//     DISPLAY=:N TraceRecorder [--output PATH]
//
// scripts/record-traces.sh starts an Xvfb server for it.
import Foundation
import GPUXCB
import PointerInput
import PredictionCorpus
import SwiftGPUSupport

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("TraceRecorder: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
let output = arguments.firstIndex(of: "--output").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    ?? "Benchmarks/PredictionCorpus/RecordedTraces.swift"

/// The latest a recording may send a position after its time, in seconds.
let maximumLateness = 0.002

do {
    let window = try TraceWindow()
    let input = try XInputSource(connection: window.connection, window: window.window)
    let received = LockedValue<[InputSample]>([], rank: .leaf("TraceRecorder.received"))
    input.start { sample in received.withLock { $0.append(sample) } }
    let recorder = TraceSession(window: window, input: input, received: received)

    // Motion before the first recording, so that the server-time mapping has seen events.
    let center = window.size / 2
    _ = recorder.record(path: { t in center + 150 * SIMD2(cos(4 * .pi * t), sin(4 * .pi * t)) }, duration: 1, rate: 240)

    var traces: [RecordedTrace] = []
    print("| stroke | offset | input | sent | samples | attempts | latest send ms | max off path px | delay ms (mean, max) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for stroke in StrokeCorpus.injected {
        let offset = TraceSession.offset(fitting: stroke, in: window.size, margin: 16)
        let path = stroke.path
        let moved: @Sendable (Double) -> SIMD2<Double> = { path($0) + offset }
        for rate in CorpusResults.rates {
            // A position sent late (the injecting thread woken late) stamps its sample late
            // for a reason that is the recorder's, not X's: such a recording is made again.
            var attempt = 1
            var (samples, injector) = recorder.record(path: moved, duration: stroke.duration, rate: rate)
            while injector.lateness > maximumLateness {
                guard attempt < 20 else { fail("\(stroke.name) at \(Int(rate)) Hz: sent up to \(injector.lateness * 1000) ms late in 20 attempts") }
                attempt += 1
                (samples, injector) = recorder.record(path: moved, duration: stroke.duration, rate: rate)
            }
            let report = TraceReport(samples: samples, sent: injector.injected, path: moved, duration: stroke.duration)
            print("| \(stroke.name) | \(Int(offset.x)), \(Int(offset.y)) | \(Int(rate)) Hz | \(report.moves) | \(samples.count) | "
                + "\(attempt) | \(report.cell(injector.lateness * 1000)) | \(report.cell(report.offPath)) | "
                + "\(report.cell(report.meanDelay * 1000)), \(report.cell(report.maxDelay * 1000)) |")
            traces.append(RecordedTrace(stroke: stroke.name, rate: rate, offset: offset,
                                        text: samples.map(RecordedTrace.line).joined(separator: "\n")))
        }
    }
    input.stop()
    try TraceSource.text(traces).write(toFile: output, atomically: true, encoding: .utf8)
    print("wrote \(traces.count) traces to \(output)")
    withExtendedLifetime(window) {}
} catch {
    fail("\(error)")
}
