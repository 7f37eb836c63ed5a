import FramePacing
import PointerInput
import Testing

@Suite("Scripted input source")
struct ScriptedInputSourceTests {
    @Test("each sample reaches the sink when the clock reaches its arrival: its timestamp plus the latency")
    func arrivals() {
        let display = VirtualDisplay(refreshRate: 60)
        let samples = ScriptedInputSource.stroke(from: .milliseconds(3), duration: .milliseconds(100), rate: 120) { [$0.seconds, 0] }
        let source = ScriptedInputSource(clock: display, samples: samples, latency: .milliseconds(2))
        let arrivals = Recorder<(Duration, InputSample)>()
        source.start { arrivals.append((display.now, $0)) }
        display.advance(by: .milliseconds(50))
        // Samples at 3, 11.3, 19.7, 28, 36.3 and 44.7 ms arrive 2 ms later; the one at 48.3 ms at 50.3 ms.
        #expect(arrivals.all.map(\.1) == Array(samples.prefix(6)))
        #expect(arrivals.all.allSatisfy { $0.0 == $0.1.timestamp + .milliseconds(2) })
        #expect(source.deliveredCount == 6 && source.remainingCount == samples.count - 6 && source.isRunning)
        display.advance(by: .seconds(1))
        #expect(arrivals.all.map(\.1) == samples)
        #expect(samples.first?.phase == .began && samples.last?.phase == .ended && samples.count == 13)
        #expect(!source.isRunning)
    }

    @Test("entries arrive in arrival order: a refinement arrives after the sample it refines, with that sample's time")
    func explicitArrivals() {
        let display = VirtualDisplay(refreshRate: 60)
        var estimated = touch(at: 1, [1, 1])
        estimated.estimatedPropertiesExpectingUpdates = [.position]
        estimated.updateSequence = 1
        var refinement = estimated
        refinement.position = [1.5, 1]
        refinement.estimatedPropertiesExpectingUpdates = []
        let source = ScriptedInputSource(clock: display, entries: [
            .init(arrival: .milliseconds(30), sample: refinement),
            .init(arrival: .milliseconds(1), sample: estimated),
            .init(arrival: .milliseconds(30), sample: touch(at: 29, [3, 1])),
        ])
        let arrivals = Recorder<(Duration, InputSample)>()
        source.start { arrivals.append((display.now, $0)) }
        display.advance(by: .milliseconds(40))
        #expect(arrivals.all.map(\.0) == [.milliseconds(1), .milliseconds(30), .milliseconds(30)])
        #expect(arrivals.all.map(\.1.position) == [[1, 1], [1.5, 1], [3, 1]])
    }

    @Test("nothing arrives after stop; start goes on from where it stopped")
    func stopAndStart() {
        let display = VirtualDisplay(refreshRate: 60)
        let samples = ScriptedInputSource.stroke(from: .milliseconds(1), duration: .milliseconds(99), rate: 100) { [$0.seconds, 0] }
        let source = ScriptedInputSource(clock: display, samples: samples)
        let arrivals = Recorder<InputSample>()
        source.start { arrivals.append($0) }
        display.advance(by: .milliseconds(25))
        source.stop()
        #expect(arrivals.count == 3 && !source.isRunning)
        display.advance(by: .milliseconds(25))
        #expect(arrivals.count == 3)
        #expect(display.scheduledTimerCount == 0)
        source.start { arrivals.append($0) }
        // The samples due while stopped (31 and 41 ms) arrive at the clock's next step.
        display.advance(by: .zero)
        #expect(arrivals.count == 5)
        display.advance(by: .seconds(1))
        #expect(arrivals.all == samples)
    }
}
