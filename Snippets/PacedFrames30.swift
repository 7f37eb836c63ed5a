// Frames paced at 30 fps on a 60 Hz virtual display: a headless layer, present after a
// minimum duration, the statistics; then a display link and the pacer's simulation.
import GPU

// snippet.hide
func run() throws {
// snippet.show
// snippet.layer
let device = try Device.makeDefault()
let queue = try device.makeCommandQueue()
let display = VirtualDisplay(refreshRate: 60)          // virtual time: moves only with advance(by:)
let layer = try Layer(device: device, surface: .headless(width: 64, height: 64, display: display))
layer.presentMode = .fifo                              // .fifoRelaxed .mailbox .immediate
layer.maximumDrawableCount = 3

for _ in 0..<60 {
    guard let drawable = layer.nextDrawable() else { break }
    let pass = RenderPassDescriptor()
    pass.colorAttachments[0].texture = drawable.texture
    pass.colorAttachments[0].loadAction = .clear
    let commandBuffer = try queue.makeCommandBuffer()
    try commandBuffer.makeRenderCommandEncoder(descriptor: pass).endEncoding()
    commandBuffer.present(drawable, afterMinimumDuration: 1.0 / 30)   // every second vblank
    commandBuffer.commit()
    commandBuffer.waitUntilCompleted()
    while drawable.presentedTime == 0 {               // time passes: the display shows it
        display.advance(by: .milliseconds(1))
    }
}
let statistics = layer.frameStatistics
print("display interval p50:", statistics.p50, "ms, max:", statistics.max, "ms")   // 33.3 ms
// statistics.svg() is the frame-time plot; json() and csv() the records
// snippet.end

// snippet.link
let link = DisplayLink(clock: display) { link in
    // link.timestamp: the vblank this callback is for;
    // link.targetTimestamp: the vblank a frame started now should be shown at
}
link.preferredFrameRateRange = FrameRateRange(minimum: 15, maximum: 60, preferred: 30)
display.advance(by: .seconds(1))
print("link runs at", link.frameRate, "fps;", link.callbackCount, "callbacks in a second")   // 30
link.invalidate()
// snippet.end

// snippet.simulation
var simulation = PacingSimulation(refreshRate: 60, presentMode: .fifo, maximumDrawableCount: 3)
simulation.swapInterval = .automatic(preferredFrameRate: 60)
let result = simulation.run(frames: 600) { _ in FrameCost(cpu: .milliseconds(30), gpu: .milliseconds(10)) }
print("automatic interval:", result.finalRefreshes, "refreshes,", result.frameRate(from: 300), "fps,",
      result.earlyPresents, "early")                   // 2 refreshes, 30 fps, 0 early
// snippet.end
// snippet.hide
guard statistics.p50 > 33, statistics.p50 < 34, link.frameRate == 30, result.finalRefreshes == 2 else {
    fatalError("pacing did not behave as the article says")
}
}
try run()
