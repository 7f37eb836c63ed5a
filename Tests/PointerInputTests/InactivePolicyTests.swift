import AppLifecycle
import FramePacing
import PointerInput
import Testing

/// A 120 Hz touch stroke from 1 ms to 3 s, through a collector following a lifecycle, on
/// a 60 Hz virtual display.
private struct Scene {
    let lifecycle = AppLifecycle(clock: ManualClock())
    let display = VirtualDisplay(refreshRate: 60)
    let script = ScriptedInputSource.stroke(from: .milliseconds(1), duration: .seconds(3), rate: 120) { [100 + 200 * $0.seconds, 50] }
    let source: ScriptedInputSource
    let collector: InputCollector
    let frames = Recorder<InputFrame>()
    let link: DisplayLink

    init(policy: InactiveInputPolicy) {
        source = ScriptedInputSource(clock: display, samples: script)
        collector = InputCollector(lifecycle: lifecycle, inactivePolicy: policy)
        link = collector.makeDisplayLink(clock: display) { [frames] frame, _ in frames.append(frame) }
        source.start(collector.sink)
    }

    /// Active until 0.505 s, inactive then background until 1.505 s, active again.
    func leaveAndComeBack(whileAway: () -> Void) {
        display.advance(by: .milliseconds(505))
        lifecycle.willResignActive()
        _ = lifecycle.didEnterBackground()
        display.advance(by: .seconds(1))
        whileAway()
        lifecycle.didBecomeActive()
    }

    /// Samples of the script in (from, to].
    func scripted(after from: Duration, upTo to: Duration) -> [InputSample] {
        script.filter { $0.timestamp > from && $0.timestamp <= to }
    }
}

@Suite("Input while the app is not active")
struct InactivePolicyTests {
    @Test("discard: nothing is delivered or held while away; the contact down at resign is cancelled, then dropped until it begins again")
    func discard() {
        let scene = Scene(policy: .discard)
        let framesBefore = 30
        scene.leaveAndComeBack {
            // No frame while away: the link has nothing scheduled, only the source's timer is.
            #expect(scene.frames.count == framesBefore)
            #expect(!scene.link.isRunning && scene.display.scheduledTimerCount == 1)
            // Nothing held but the one cancellation.
            #expect(scene.collector.waitingCount == 1 && !scene.collector.isActive)
        }
        // Delivered before resigning: everything up to the last frame at 500 ms.
        let before = scene.frames.all.flatMap(\.coalescedSamples)
        #expect(before == scene.scripted(after: .zero, upTo: .milliseconds(500)))
        // Dropped: the one sample pending at resign (at 501 ms) and the 120 pushed while away.
        #expect(scene.collector.discardedSampleCount == 1 + scene.scripted(after: .milliseconds(505), upTo: .milliseconds(1505)).count)

        scene.display.advance(by: scene.display.refreshPeriod)
        let first = scene.frames.all[framesBefore]
        let cancelled = first.coalescedSamples
        #expect(cancelled.count == 1 && cancelled[0].phase == .cancelled)
        // The cancellation carries the last sample the collector took in before resigning.
        #expect(cancelled[0].timestamp == scene.scripted(after: .zero, upTo: .milliseconds(505)).last?.timestamp)
        #expect(first.predictedSamples.isEmpty)

        // The rest of the stroke is dropped; a new one is delivered.
        scene.display.advance(by: .seconds(2))
        #expect(scene.frames.all.dropFirst(framesBefore + 1).allSatisfy { $0.isEmpty })
        let stroke = ScriptedInputSource.stroke(from: scene.display.now + .milliseconds(1), duration: .milliseconds(100),
                                                rate: 120) { [$0.seconds, 0] }
        let again = ScriptedInputSource(clock: scene.display, samples: stroke)
        again.start(scene.collector.sink)
        scene.display.advance(by: .milliseconds(200))
        #expect(Array(scene.frames.all.flatMap(\.coalescedSamples).suffix(stroke.count)) == stroke)
        #expect(scene.frames.all.flatMap(\.coalescedSamples).count == before.count + 1 + stroke.count)
        scene.link.invalidate()
    }

    @Test("deliver on reactivation: nothing is delivered while away; the first frame back holds every sample since the last one, in order")
    func deliverOnReactivation() {
        let scene = Scene(policy: .deliverOnReactivation)
        scene.leaveAndComeBack {
            #expect(scene.frames.count == 30)
            #expect(!scene.link.isRunning && scene.display.scheduledTimerCount == 1)
            // Held: the sample pending at resign and the 120 pushed while away.
            #expect(scene.collector.waitingCount == scene.scripted(after: .milliseconds(500), upTo: .milliseconds(1505)).count)
        }
        scene.display.advance(by: scene.display.refreshPeriod)
        let first = scene.frames.all[30]
        #expect(first.coalescedSamples == scene.scripted(after: .milliseconds(500), upTo: first.timestamp))
        // The contact is still down and its latest sample recent: it is predicted again.
        #expect(first.predictedSamples.count == 1)
        scene.display.advance(by: .seconds(2))
        #expect(scene.frames.all.flatMap(\.coalescedSamples) == scene.script)
        #expect(scene.collector.discardedSampleCount == 0)
        scene.link.invalidate()
    }

    @Test("the policy can change: discard while away after delivering before")
    func policyChange() {
        let scene = Scene(policy: .deliverOnReactivation)
        scene.collector.inactivePolicy = .discard
        #expect(scene.collector.inactivePolicy == .discard)
        scene.leaveAndComeBack {}
        #expect(scene.collector.discardedSampleCount > 100)
        scene.link.invalidate()
    }
}
