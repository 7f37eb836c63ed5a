// The lifecycle gate: work refused in the background, the drain report, a background task.
import GPU

// snippet.hide
func run() throws {
// snippet.show
// snippet.setup
let lifecycle = AppLifecycle()                   // or AppLifecycle.shared
let device = try Device.makeDefault(lifecycle: lifecycle)
let queue = try device.makeCommandQueue()
let token = lifecycle.observe { transition in print("transition:", transition) }
// or: for await transition in lifecycle.transitions { … }
// snippet.end

// snippet.resign
let frameInHand = try queue.makeCommandBuffer()  // made while active
lifecycle.willResignActive()                     // finish the frame in hand, start no new one
frameInHand.commit()                             // still accepted
let late = try queue.makeCommandBuffer()         // made while inactive
late.commit()                                    // refused: not critical for deactivation
let critical = try queue.makeCommandBuffer(descriptor: CommandBufferDescriptor(criticalForDeactivation: true))
critical.commit()                                // accepted
// snippet.end

// snippet.background
let report = lifecycle.didEnterBackground(deadline: .seconds(5))
print(report)                                    // scheduled …, refused …, failed at deadline 0, elapsed …

let refused = try queue.makeCommandBuffer()
refused.commit()
refused.waitUntilCompleted()
print(refused.status, refused.error.map(String.init(describing:)) ?? "")   // error, Insufficient permission …
// snippet.end

// snippet.task
let task = lifecycle.beginBackgroundTask(name: "save", usesGPU: true) {
    print("expired: wrap up")                    // after backgroundTaskBudget (30 s) on the clock
}
let save = try queue.makeCommandBuffer()
save.commit()                                    // let through while the task runs
save.waitUntilCompleted()
lifecycle.endBackgroundTask(task)
// snippet.end

// snippet.return
lifecycle.willEnterForeground()
lifecycle.didBecomeActive()                      // the gate reopens
token.cancel()
// snippet.end
// snippet.hide
frameInHand.waitUntilCompleted()
critical.waitUntilCompleted()
late.waitUntilCompleted()
guard frameInHand.status == .completed, critical.status == .completed, late.status == .error,
      refused.status == .error, save.status == .completed else {
    fatalError("the gate did not behave as the article says")
}
}
try run()
