import FramePacing
import SwiftGPUSupport
import Testing

/// Every event of every image presented through it, in delivery order.
final class EventLog: Sendable {
    private let events = LockedValue<[(image: Int, event: DisplayPresentEvent)]>([], rank: .leaf("VirtualDisplayTests.events"))

    func request(_ image: Int, _ mode: PresentMode, notBefore: Duration? = nil) -> DisplayPresentRequest {
        DisplayPresentRequest(imageIndex: image, mode: mode, notBefore: notBefore) { [self] event in
            events.withLock { $0.append((image, event)) }
        }
    }

    var all: [(image: Int, event: DisplayPresentEvent)] { events.withLock { $0 } }

    /// Display times of the images shown, in order.
    var displayed: [(image: Int, at: Duration)] {
        all.compactMap { if case .displayed(let time) = $0.event { ($0.image, time) } else { nil } }
    }

    var dropped: [Int] { all.compactMap { if case .dropped = $0.event { $0.image } else { nil } } }
    var released: [Int] { all.compactMap { if case .released = $0.event { $0.image } else { nil } } }
}

private let ms = Duration.milliseconds

@Suite("Virtual display")
struct VirtualDisplayTests {
    /// Presents image i at i × `every` for `count` images, advancing the display between.
    static func script(_ display: VirtualDisplay, _ log: EventLog, _ mode: PresentMode, every: Duration, count: Int) {
        for image in 0..<count {
            display.present(log.request(image, mode))
            display.advance(by: every)
        }
    }

    @Test("vblank k is at k/rate, rounded to the nanosecond: no drift over 36,000 refreshes")
    func vblankTimes() {
        let display = VirtualDisplay(refreshRate: 60)
        #expect(display.vblankTime(1) == .nanoseconds(16_666_667))
        #expect(display.vblankTime(2) == .nanoseconds(33_333_333))
        #expect(display.vblankTime(36_000) == .seconds(600))
        #expect(display.refreshPeriod == .nanoseconds(16_666_667))
    }

    @Test("fifo: one queued image per vblank, in order, none dropped; each released when the next shows")
    func fifo() {
        let display = VirtualDisplay(refreshRate: 60)
        let log = EventLog()
        for image in 0..<3 { display.present(log.request(image, .fifo)) }
        display.advance(by: ms(100))
        #expect(log.displayed.map(\.image) == [0, 1, 2])
        #expect(log.displayed.map(\.at) == [1, 2, 3].map(display.vblankTime))
        #expect(log.released == [0, 1])
        #expect(log.dropped.isEmpty)
    }

    @Test("presents every 10 ms for 1 s at 60 Hz: fifo shows 60 and queues 40, mailbox shows 60 and drops 40, immediate shows 100")
    func scriptedRenderTimes() {
        for (mode, displayed, dropped) in [(PresentMode.fifo, 60, 0), (.mailbox, 60, 40), (.immediate, 100, 0)] {
            let display = VirtualDisplay(refreshRate: 60)
            let log = EventLog()
            Self.script(display, log, mode, every: ms(10), count: 100)
            #expect(display.now == .seconds(1))
            #expect(log.displayed.count == displayed, "\(mode)")
            #expect(log.dropped.count == dropped, "\(mode)")
            if mode == .mailbox {
                // The newest image of each refresh wins: the one presented last before the vblank.
                #expect(log.displayed.prefix(3).map(\.image) == [1, 3, 4])
                #expect(Set(log.dropped).isDisjoint(with: log.displayed.map(\.image)))
            }
            if mode == .immediate { #expect(log.displayed.map(\.at) == (0..<100).map { ms(10) * $0 }) }
        }
    }

    @Test("fifoRelaxed: a late image is shown at once; fifo waits for the next vblank")
    func fifoRelaxed() {
        for (mode, expected) in [(PresentMode.fifoRelaxed, ms(40)), (.fifo, VirtualDisplay().vblankTime(3))] {
            let display = VirtualDisplay(refreshRate: 60)
            let log = EventLog()
            display.present(log.request(0, mode))
            display.advance(by: ms(40))   // image 0 up since vblank 1; vblank 2 passed with nothing queued
            display.present(log.request(1, mode))
            display.advance(by: ms(20))
            #expect(log.displayed.map(\.at) == [display.vblankTime(1), expected], "\(mode)")
        }
        // Not late: shown for less than a refresh, so it waits like fifo.
        let display = VirtualDisplay(refreshRate: 60)
        let log = EventLog()
        display.present(log.request(0, .fifoRelaxed))
        display.advance(by: ms(20))
        display.present(log.request(1, .fifoRelaxed))
        display.advance(by: ms(20))
        #expect(log.displayed.map(\.at) == [display.vblankTime(1), display.vblankTime(2)])
    }

    @Test("notBefore: never shown early, in every mode")
    func notBefore() {
        for (mode, expected) in [(PresentMode.fifo, VirtualDisplay().vblankTime(3)), (.mailbox, VirtualDisplay().vblankTime(3)),
                                 (.fifoRelaxed, VirtualDisplay().vblankTime(3)), (.immediate, ms(40))] {
            let display = VirtualDisplay(refreshRate: 60)
            let log = EventLog()
            display.present(log.request(0, mode, notBefore: ms(40)))
            display.advance(by: ms(100))
            #expect(log.displayed.map(\.at) == [expected], "\(mode)")
        }
    }

    @Test("mailbox: a dropped image is released at once, before the vblank")
    func mailboxRelease() {
        let display = VirtualDisplay(refreshRate: 60)
        let log = EventLog()
        display.present(log.request(0, .mailbox))
        display.present(log.request(1, .mailbox))
        #expect(log.all.map(\.image) == [0, 0])
        #expect(log.all.map(\.event) == [.dropped(at: .zero), .released(at: .zero)])
        display.advance(by: ms(17))
        #expect(log.displayed.map(\.image) == [1])
    }

    @Test("a timer that advances the display itself: the outer advance goes on from there, time never goes back")
    func nestedAdvance() {
        let display = VirtualDisplay(refreshRate: 60)
        let fired = LockedValue<[Duration]>([], rank: .leaf("VirtualDisplayTests.fired"))
        // At vblank 1, a timer moves the display on to vblank 3 (as a view waiting for a
        // drawable does); a timer at vblank 2 runs inside that.
        let inner = display.schedule(at: display.vblankTime(2), leeway: .zero) { now in fired.withLock { $0.append(now) } }
        let outer = display.schedule(at: display.vblankTime(1), leeway: .zero) { now in
            fired.withLock { $0.append(now) }
            display.advance(by: display.vblankTime(3) - now)
        }
        display.advance(by: display.vblankTime(1))
        #expect(display.now == display.vblankTime(3))
        #expect(fired.withLock { $0 } == [display.vblankTime(1), display.vblankTime(2)])
        display.advance(by: .milliseconds(1))
        #expect(display.now == display.vblankTime(3) + .milliseconds(1))
        _ = (inner, outer)
    }
}
