// DrainLatency: how long didEnterBackground(deadline:) takes, call to return, when N
// committed command buffers are still waiting to be scheduled as the gate closes.
//
//     swift run -c release DrainLatency [--runs 31]
//
// Each run commits N one-dispatch buffers held behind an event wait, then calls
// didEnterBackground; an observer releases the event as the gate closes, so the drain must
// wait until all N are scheduled. Prints the median and min–max per N.
import Foundation
import GPU
import Shaders

let arguments = CommandLine.arguments
let runs = arguments.firstIndex(of: "--runs").flatMap { Int(arguments[$0 + 1]) } ?? 31

func measure(buffers count: Int) throws -> [Double] {
    let lifecycle = AppLifecycle()
    let device = try Device.makeDefault(lifecycle: lifecycle)
    let queue = try device.makeCommandQueue(maxCommandBufferCount: count + 8)
    let library = try device.makeDefaultLibrary(bundle: Shaders.bundle)
    let pipeline = try device.makeComputePipelineState(function: library.makeFunction(name: "increment.comp"))
    let counter = try device.makeBuffer(length: 4)
    var samples: [Double] = []
    for run in 0..<(runs + 2) {
        let event = try device.makeSharedEvent()
        var last: CommandBuffer?
        for _ in 0..<count {
            let cb = try queue.makeCommandBuffer()
            cb.encodeWaitForEvent(event, value: 1)
            let encoder = try cb.makeComputeCommandEncoder()
            encoder.setComputePipelineState(pipeline)
            encoder.setBuffer(counter, offset: 0, index: 0)
            var amount: UInt32 = 1
            try encoder.setBytes(&amount, length: 4, index: 3)
            try encoder.dispatchThreadgroups(Size(width: 1), threadsPerThreadgroup: Size(width: 1))
            encoder.endEncoding()
            cb.commit()
            last = cb
        }
        let release = lifecycle.observe { if $0.event == .didEnterBackground { event.signaledValue = 1 } }
        let start = DispatchTime.now().uptimeNanoseconds
        let report = lifecycle.didEnterBackground(deadline: .seconds(30))
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        release.cancel()
        guard report.scheduled == count, report.failedAtDeadline == 0 else {
            fatalError("drain of \(count) buffers reported \(report)")
        }
        last?.waitUntilCompleted()
        lifecycle.didBecomeActive()
        if run >= 2 { samples.append(elapsed) }   // two warm-up runs
    }
    let expected = UInt32((runs + 2) * count)
    guard counter.contents().load(as: UInt32.self) == expected else { fatalError("counter mismatch") }
    return samples
}

let device = try Device.makeDefault()
print("device: \(device.name); \(runs) runs per size after 2 warm-up runs")
print("LP_NUM_THREADS=\(ProcessInfo.processInfo.environment["LP_NUM_THREADS"] ?? "(default)") "
    + "MALLOC_TRIM_THRESHOLD_=\(ProcessInfo.processInfo.environment["MALLOC_TRIM_THRESHOLD_"] ?? "(default)")")
print("| committed buffers | median (ms) | min–max (ms) |")
print("|---:|---:|---:|")
for count in [1, 16, 256] {
    let samples = try measure(buffers: count).sorted()
    let median = samples[samples.count / 2]
    print(String(format: "| %d | %.3f | %.3f–%.3f |", count, median, samples.first!, samples.last!))
}
