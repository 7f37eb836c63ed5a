import AppLifecycle

/// Where a `Layer`'s drawables come from and go to: a ring of offscreen textures shown on
/// a virtual display (`HeadlessDrawables`), or the swapchain of a window
/// (`WindowPresenter`). The layer keeps the settings, the frame records and the presented
/// handlers; the source keeps its drawables and decides how they reach the screen.
///
/// Both share the layer's lock, since `nextDrawable()` waits on the layer's settings and
/// the source's state together. No method is called with that lock held unless it says so.
protocol DrawableSource: AnyObject, Sendable {
    /// `nextDrawable()`: the next drawable of `layer`, or nil on timeout (host monotonic
    /// nanoseconds `deadline`), while the lifecycle is not active, or at zero size.
    func nextDrawable(of layer: Layer, deadline: UInt64?) -> Drawable?

    /// Makes `commandBuffer` present `drawable` with `timing`: the source adds the
    /// handler that hands the drawable on once the buffer is scheduled or completed.
    func present(_ drawable: Drawable, timing: PresentTiming, by commandBuffer: CommandBuffer)

    /// A drawable that never reached the display went away: its slot (ring slot or
    /// swapchain image) of generation `generation` goes back.
    func reclaim(slot: Int, generation: Int)

    /// A setting of `layer` the drawables depend on changed (format, size, count, mode,
    /// low latency). Called with the layer's lock held.
    func settingsChanged(_ layer: Layer)

    /// The app's lifecycle changed.
    func lifecycleChanged(_ transition: LifecycleTransition)

    /// The present mode in use after the surface's fallback; nil where the layer's mode is
    /// used as it is (headless). Called with the layer's lock held.
    var activeMode: PresentMode? { get }

    /// The layer goes away: threads stop and the drawables are released.
    func shutdown()
}
