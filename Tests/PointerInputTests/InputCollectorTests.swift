import Foundation
import FramePacing
import PointerInput
import Testing

/// A straight stroke at 1,000 px/s along x.
private func along(_ time: Duration) -> SIMD2<Double> { [100 + 1000 * time.seconds, 200] }

@Suite("Input collector")
struct InputCollectorTests {
    @Test("one frame per display-link tick, holding every sample since the previous one, in order, none dropped")
    func perFrameDelivery() {
        let display = VirtualDisplay(refreshRate: 60)
        // 240 Hz from 1 ms: four samples between consecutive vblanks, none on a vblank.
        let script = ScriptedInputSource.stroke(from: .milliseconds(1), duration: .milliseconds(990), rate: 240, path: along)
        let source = ScriptedInputSource(clock: display, samples: script)
        let collector = InputCollector(prediction: nil)
        let frames = Recorder<InputFrame>()
        let link = collector.makeDisplayLink(clock: display) { frame, _ in frames.append(frame) }
        source.start(collector.sink)
        display.advance(by: .seconds(1))

        #expect(frames.count == 60)
        #expect(link.callbackCount == 60 && collector.frameCount == 60)
        #expect(frames.all.map(\.timestamp) == (1...60).map { display.vblankTime($0) })
        #expect(frames.all.allSatisfy { $0.targetTimestamp == display.vblank(after: $0.timestamp) })
        #expect(frames.all.flatMap(\.coalescedSamples) == script)
        // Each frame holds exactly the samples after the previous vblank, up to its own.
        var previous: Duration = .zero
        for frame in frames.all {
            #expect(frame.coalescedSamples.allSatisfy { $0.timestamp > previous && $0.timestamp <= frame.timestamp })
            previous = frame.timestamp
        }
        #expect(frames.all.dropLast().allSatisfy { $0.coalescedSamples.count == 4 })
        #expect(collector.waitingCount == 0 && collector.discardedSampleCount == 0)
        link.invalidate()
        source.stop()
    }

    @Test("frames keep each contact's samples in order when contacts interleave at different rates")
    func perContact() {
        let display = VirtualDisplay(refreshRate: 60)
        let finger = ScriptedInputSource.stroke(device: .touch, contact: 3, from: .milliseconds(2), duration: .milliseconds(500),
                                                rate: 120, path: along)
        let pen = ScriptedInputSource.stroke(device: .pen, contact: 3, from: .milliseconds(3), duration: .milliseconds(500),
                                             rate: 240) { [300, 100 + 500 * $0.seconds] }
        let sources = [ScriptedInputSource(clock: display, samples: finger), ScriptedInputSource(clock: display, samples: pen)]
        let collector = InputCollector(prediction: nil)
        let frames = Recorder<InputFrame>()
        let link = collector.makeDisplayLink(clock: display) { frame, _ in frames.append(frame) }
        for source in sources { source.start(collector.sink) }
        display.advance(by: .milliseconds(600))

        let fingerID = InputContactID(device: .touch, contact: 3), penID = InputContactID(device: .pen, contact: 3)
        #expect(frames.all.flatMap { $0.coalescedSamples(for: fingerID) } == finger)
        #expect(frames.all.flatMap { $0.coalescedSamples(for: penID) } == pen)
        #expect(frames.all.flatMap(\.coalescedSamples).count == finger.count + pen.count)
        #expect(frames.all[3].contacts == [fingerID, penID])
        #expect(frames.all.last?.isEmpty == true)
        link.invalidate()
    }

    @Test("samples pushed from eight threads while frames are taken: every one is delivered once, each thread's in order")
    func concurrentPushes() {
        let perThread = 2_000
        // Room for every sample: frames may all be taken before the pushes are done.
        let collector = InputCollector(prediction: nil, capacity: 8 * perThread)
        let frames = Recorder<InputFrame>()
        DispatchQueue.concurrentPerform(iterations: 9) { thread in
            if thread == 8 {
                for index in 0..<400 { frames.append(collector.nextFrame(timestamp: .milliseconds(index), targetTimestamp: .milliseconds(index + 16))) }
                return
            }
            for index in 0..<perThread {
                collector.push(touch(thread, index == 0 ? .began : .moved, at: Double(index), [Double(index), 0]))
            }
        }
        frames.append(collector.nextFrame(timestamp: .seconds(1), targetTimestamp: .seconds(1)))
        let delivered = frames.all.flatMap(\.coalescedSamples)
        #expect(delivered.count == 8 * perThread)
        for thread in 0..<8 {
            let mine = delivered.filter { $0.contact == thread }.map(\.position.x)
            #expect(mine.elementsEqual((0..<perThread).map(Double.init)), "thread \(thread): \(mine.count) samples")
        }
        #expect(collector.frameCount == 401 && collector.discardedSampleCount == 0)
    }

    @Test("a refinement before delivery is applied in place; after delivery it comes in the next frame's updated samples")
    func refinements() {
        let collector = InputCollector(prediction: nil)
        let frame = { (ms: Int64) in collector.nextFrame(timestamp: .milliseconds(ms), targetTimestamp: .milliseconds(ms + 16)) }
        var first = touch(1, .began, at: 1, [10, 10])
        first.pressure = 0.2
        first.estimatedProperties = [.pressure, .position]
        first.estimatedPropertiesExpectingUpdates = [.pressure]
        first.updateSequence = 7
        var second = touch(1, .moved, at: 5, [12, 10])
        second.pressure = 0.3
        second.estimatedProperties = [.pressure]
        second.estimatedPropertiesExpectingUpdates = [.pressure]
        second.updateSequence = 8
        collector.push(first)
        collector.push(second)
        // Refines sample 7 before its frame: the position is not refinable and stays.
        var update = touch(1, .moved, at: 6, [99, 99])
        update.pressure = 0.25
        update.estimatedPropertiesExpectingUpdates = [.pressure]
        update.updateSequence = 7
        collector.push(update)
        let one = frame(16)
        #expect(one.coalescedSamples.count == 2 && one.updatedSamples.isEmpty)
        #expect(one.coalescedSamples[0].pressure == 0.25 && one.coalescedSamples[0].position == [10, 10])
        #expect(one.coalescedSamples[0].timestamp == .milliseconds(1) && one.coalescedSamples[0].phase == .began)
        #expect(one.coalescedSamples[0].estimatedProperties == [.pressure, .position])
        #expect(one.coalescedSamples[0].estimatedPropertiesExpectingUpdates == [.pressure])

        // After delivery: the final values of both come in the next frame, as updates.
        var final7 = update
        final7.pressure = 0.24
        final7.estimatedPropertiesExpectingUpdates = []
        var final8 = touch(1, .moved, at: 20, [0, 0])
        final8.pressure = 0.35
        final8.updateSequence = 8
        collector.push(final7)
        collector.push(touch(1, .moved, at: 21, [14, 10]))
        collector.push(final8)
        let two = frame(33)
        #expect(two.coalescedSamples.map(\.position) == [[14, 10]])
        #expect(two.updatedSamples.map(\.updateSequence) == [7, 8])
        #expect(two.updatedSamples.map(\.pressure) == [0.24, 0.35])
        #expect(two.updatedSamples.map(\.timestamp) == [.milliseconds(1), .milliseconds(5)])
        #expect(two.updatedSamples.map(\.position) == [[10, 10], [12, 10]])
        #expect(two.updatedSamples.allSatisfy { $0.estimatedPropertiesExpectingUpdates.isEmpty })
        #expect(two.updatedSamples[0].estimatedProperties == [.position])
        #expect(two.updatedSamples[1].estimatedProperties.isEmpty)

        // Both are final: the same sequence number now starts a new sample.
        var reused = touch(1, .moved, at: 40, [16, 10])
        reused.updateSequence = 7
        collector.push(reused)
        let three = frame(50)
        #expect(three.coalescedSamples == [reused] && three.updatedSamples.isEmpty)
    }

    @Test("more samples than the capacity waiting for one frame: the oldest go, counted")
    func capacity() {
        let collector = InputCollector(prediction: nil, capacity: 10)
        for index in 0..<15 { collector.push(touch(at: Double(index), [Double(index), 0])) }
        #expect(collector.waitingCount == 10)
        let frame = collector.nextFrame(timestamp: .milliseconds(16), targetTimestamp: .milliseconds(33))
        #expect(frame.coalescedSamples.map(\.position.x) == (5..<15).map(Double.init))
        #expect(collector.discardedSampleCount == 5)
    }

    @Test("predictions aim at the link's target, or at the timestamp plus the lead")
    func predictionTime() {
        let collector = InputCollector(prediction: InputPrediction(predictor: LeastSquaresPredictor(degree: 1)))
        // 1 px per ms: x = t - 1.
        for time in [1.0, 5, 9, 13] { collector.push(touch(at: time, [time - 1, 0])) }
        let frame = collector.nextFrame(timestamp: .milliseconds(16), targetTimestamp: .milliseconds(33))
        #expect(frame.predictionTimestamp == .milliseconds(33))
        #expect(frame.predictedSamples.count == 1)
        #expect(abs(frame.predictedSamples[0].position.x - 32) < 1e-9)
        #expect(frame.predictedSamples[0].timestamp == .milliseconds(33))
        #expect(frame.predictedSamples[0].isPredicted && frame.predictedSamples[0].phase == .moved)
        #expect(frame.predictedSamples[0].estimatedProperties.contains(.position))

        collector.predictionLead = .milliseconds(8)
        collector.push(touch(at: 21, [20, 0]))
        let next = collector.nextFrame(timestamp: .milliseconds(33), targetTimestamp: .milliseconds(50))
        #expect(next.predictionTimestamp == .milliseconds(41) && next.targetTimestamp == .milliseconds(50))
        // The latest sample (21 ms) is 12 ms old at the frame, more than its 8 ms interval:
        // the reach is the 8 ms lead plus one interval, to 37 ms, not 41.
        #expect(abs(next.predictedSamples[0].position.x - 36) < 1e-9 && next.predictedSamples[0].timestamp == .milliseconds(37))
    }
}
