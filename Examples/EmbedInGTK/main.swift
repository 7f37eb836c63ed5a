// EmbedInGTK: a GTK 4 window with a SwiftGPU view beside ordinary GTK controls. The view
// draws the triangle on GTK's frame clock; "Colour" changes the clear colour it draws
// with, "Show view" hides and shows it (hidden, it draws nothing: the app is in the
// background), "Quit" ends the example.
//
//     swift run EmbedInGTK [--route import|copy] [--size 320x240]
//     swift run EmbedInGTK --measure 120 --size 1920x1080 [--route copy]
//
// --route copy shows frames as GdkMemoryTexture copies instead of importing the texture's
// memory into GL. --measure N draws N frames continuously and prints, per frame, the route's
// own cost and the whole frame's (tick to the end of GTK's paint), then quits. Under Xvfb:
// GDK_BACKEND=x11.
import AppLifecycle
import CGTKView
import ExampleSupport
import FramePacing
import Foundation
import GPU
import GPUGTK

let size = (option("--size") ?? "320x240").split(separator: "x").compactMap { Int32($0) }
guard size.count == 2, size.allSatisfy({ $0 > 0 }) else { fail("--size takes WIDTHxHEIGHT") }
let route: GTKView.Route = option("--route") == "copy" ? .memoryTextureCopy : .importedMemory
let measured = option("--measure").flatMap(Int.init)

/// The example's state and widgets; GTK calls back on the main thread only.
@MainActor
final class EmbedApp {
    static let colours = [ClearColor(red: 0.1, green: 0.1, blue: 0.3, alpha: 1), ClearColor(red: 0.1, green: 0.3, blue: 0.1, alpha: 1),
                          ClearColor(red: 0.3, green: 0.1, blue: 0.1, alpha: 1)]
    let window = gtk_window_new()!
    let view: GTKView
    let colourButton = gtk_button_new_with_label("Colour")!
    let showToggle = gtk_check_button_new_with_label("Show view")!
    let quitButton = gtk_button_new_with_label("Quit")!
    var colour = 0
    var quit = false
    var announced = false
    var hiddenTick: UInt32 = 0
    var hiddenFrames = 0
    var submittedAtHide = 0

    init(device: Device, queue: CommandQueue) throws {
        let scene = try TriangleScene(device: device, queue: queue, pixelFormat: .rgba8Unorm)
        var app: EmbedApp?
        view = GTKView(device: device, route: route) { texture, _ in
            try scene.draw(into: texture, clear: EmbedApp.colours[app?.colour ?? 0])
        }
        app = self
        gtk_window_set_title(window, "SwiftGPU in a GTK 4 window")
        let column = gtk_box_new(Int32(SWIFTGPU_GTK_VERTICAL), 6)!
        let row = gtk_box_new(Int32(SWIFTGPU_GTK_HORIZONTAL), 6)!
                gtk_widget_set_size_request(view.widget, size[0], size[1])
        for control in [colourButton, showToggle, quitButton] { gtk_box_append(row, control) }
        gtk_check_button_set_active(showToggle, 1)
        // The controls above the view, so that hiding the view does not move them.
        gtk_box_append(column, row)
        gtk_box_append(column, view.widget)
        gtk_window_set_child(window, column)
        let context = Unmanaged.passUnretained(self).toOpaque()
        connect(colourButton, "clicked", context) { app in
            app.colour = (app.colour + 1) % EmbedApp.colours.count
            app.view.setNeedsDisplay()
        }
        connect(showToggle, "toggled", context) { app in app.toggled() }
        connect(quitButton, "clicked", context) { app in app.quit = true }
        connect(window, "close-request", context) { app in app.quit = true }
        if measured != nil { view.isContinuous = true }
    }

    /// Connects `signal` of `widget` to `action`, which gets the app.
    private func connect(_ widget: OpaquePointer, _ signal: String, _ context: UnsafeMutableRawPointer,
                         _ action: @escaping @MainActor (EmbedApp) -> Void) {
        let box = Unmanaged.passRetained(ActionBox(app: self, action: action)).toOpaque()
        let handler: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32 = { _, data in
            MainActor.assumeIsolated {
                let box = Unmanaged<ActionBox>.fromOpaque(data!).takeUnretainedValue()
                box.action(box.app)
            }
            return 0
        }
        g_signal_connect_data(UnsafeMutableRawPointer(widget), signal, unsafeBitCast(handler, to: GCallback.self), box, nil, 0)
    }

    func toggled() {
        let visible = gtk_check_button_get_active(showToggle) != 0
        if visible {
            if hiddenTick != 0 { gtk_widget_remove_tick_callback(window, hiddenTick) }
            hiddenTick = 0
            say("view shown after \(hiddenFrames) window frames hidden: \(view.submittedFrames) submissions (\(submittedAtHide) at hiding)")
            gtk_widget_set_visible(view.widget, 1)
        } else {
            gtk_widget_set_visible(view.widget, 0)
            submittedAtHide = view.submittedFrames
            hiddenFrames = 0
            say("view hidden after \(view.submittedFrames) submissions; lifecycle \(AppLifecycle.shared.state)")
            // The window's own frames go on while the view is hidden: counted, to show none
            // of them drew.
            hiddenTick = gtk_widget_add_tick_callback(window, { _, _, data in
                MainActor.assumeIsolated {
                    let app = Unmanaged<EmbedApp>.fromOpaque(data!).takeUnretainedValue()
                    app.hiddenFrames += 1
                    if app.hiddenFrames == 10 { say("hidden for 10 window frames: \(app.view.submittedFrames) submissions") }
                }
                return 1
            }, Unmanaged.passUnretained(self).toOpaque(), nil)
        }
    }

    /// Says where a control's centre is in the window, for a test to click it.
    func announce() {
        guard !announced, view.submittedFrames > 0, let surface = gtk_native_get_surface(window) else { return }
        announced = true
        say("window \(gdk_x11_surface_get_xid(surface)) route \(view.route!)")
        // Widget coordinates are the window's; its surface may add a margin (client-side shadows).
        var marginX = 0.0, marginY = 0.0
        gtk_native_get_surface_transform(window, &marginX, &marginY)
        func place(_ control: OpaquePointer, atCentre: Bool) -> String {
            var x = 0.0, y = 0.0
            let width = Double(gtk_widget_get_width(control)), height = Double(gtk_widget_get_height(control))
            _ = gtk_widget_translate_coordinates(control, window, atCentre ? width / 2 : 0, atCentre ? height / 2 : 0, &x, &y)
            return "\(Int(x + marginX)) \(Int(y + marginY))"
        }
        say("view at \(place(view.widget, atCentre: false)) size \(gtk_widget_get_width(view.widget)) \(gtk_widget_get_height(view.widget))")
        for (name, control) in [("colour", colourButton), ("show", showToggle), ("quit", quitButton)] {
            say("\(name) at \(place(control, atCentre: true))")
        }
    }
}

/// A signal's action and the app it acts on.
final class ActionBox {
    let app: EmbedApp
    let action: @MainActor (EmbedApp) -> Void
    init(app: EmbedApp, action: @escaping @MainActor (EmbedApp) -> Void) {
        self.app = app
        self.action = action
    }
}

gtk_init()
do {
    let device = try Device.makeDefault()
    let queue = try device.makeCommandQueue()
    let app = try EmbedApp(device: device, queue: queue)
    gtk_window_set_default_size(app.window, size[0] + 40, size[1] + 80)
    gtk_window_present(app.window)
    var reported = 0
    while !app.quit {
        g_main_context_iteration(nil, 1)
        app.announce()
        if app.view.submittedFrames > reported {
            reported = app.view.submittedFrames
            say("drawn \(reported) with colour \(app.colour)")
        }
        if let measured, app.view.frameMilliseconds.count >= measured {
            func summary(_ window: RingBuffer<Double>) -> String {
                let times = Array(window).sorted()
                return String(format: "%.2f ms mean, %.2f p95", times.reduce(0, +) / Double(times.count), times[times.count * 95 / 100])
            }
            say("route \(app.view.route!) at \(size[0])x\(size[1]) over \(measured) frames: route \(summary(app.view.transferMilliseconds)); "
                + "whole frame \(summary(app.view.frameMilliseconds))")
            app.quit = true
        }
    }
    gtk_window_destroy(app.window)
} catch {
    fail("\(error)")
}
