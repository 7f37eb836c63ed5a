import GPU

/// B4: how long `didEnterBackground(deadline:)` takes, call to return, when N committed
/// command buffers are still waiting to be scheduled as the gate closes (N = 1, 16, 256).
/// Each buffer waits on an event that an observer signals as the gate closes, so the drain
/// must wait until all N are scheduled. One report per N: the median of
/// `drainRepetitions` drains after one warm-up drain.
/// Drains measured per size and process (an odd count: the median is one of them).
let drainRepetitions = 15

func drain() throws -> [RunReport] {
    try [1, 16, 256].map { count in
        let lifecycle = AppLifecycle()
        let device = try Device.makeDefault(lifecycle: lifecycle)
        let queue = try device.makeCommandQueue(maxCommandBufferCount: count + 8)
        let pipeline = try device.makeComputePipelineState(
            function: library.makeFunction(name: "increment.comp"))
        let counter = try device.makeBuffer(length: 4)
        var one: UInt32 = 1
        let params = try device.makeBuffer(bytes: &one, length: 4)
        var measured: [Double] = []
        for pass in 0...drainRepetitions {   // pass 0 warms up
            let event = try device.makeSharedEvent()
            var last: CommandBuffer?
            for _ in 0..<count {
                let cb = try queue.makeCommandBuffer()
                cb.encodeWaitForEvent(event, value: 1)
                try encodeIncrement(cb, pipeline, counter: counter, params: params)
                cb.commit()
                last = cb
            }
            let release = lifecycle.observe { if $0.event == .didEnterBackground { event.signaledValue = 1 } }
            let start = now()
            let report = lifecycle.didEnterBackground(deadline: .seconds(30))
            if pass > 0 { measured.append(Double(now() - start) / 1e6) }
            release.cancel()
            guard report.scheduled == count, report.failedAtDeadline == 0 else { fail("B4 drain of \(count): \(report)") }
            last?.waitUntilCompleted()
            lifecycle.didBecomeActive()
        }
        let value = counter.contents().load(as: UInt32.self)
        guard value == (drainRepetitions + 1) * count else {
            fail("B4 counter \(value), expected \((drainRepetitions + 1) * count)")
        }
        var report = RunReport(bench: "B4", variant: "\(count)")
        report.metrics["drain_ms"] = measured.sorted()[measured.count / 2]
        return report
    }
}
