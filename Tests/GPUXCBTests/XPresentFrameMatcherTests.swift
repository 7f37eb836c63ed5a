import FramePacing
import Testing
@testable import GPUXCB

/// The matching of Present completions to presented frames, on scripted events.
@Suite("X Present frame matching")
struct XPresentFrameMatcherTests {
    /// A NotifyMSC completion for `frame` at vblank `msc` (60 Hz from time 0).
    func notify(_ frame: UInt64, msc: UInt64) -> XPresentCompletion {
        XPresentCompletion(kind: .notifyMSC, serial: XPresentFrameMatcher.serial(of: frame), ust: msc * 16_667, msc: msc)
    }

    func pixmap(_ mode: PresentCompletionMode, msc: UInt64) -> XPresentCompletion {
        XPresentCompletion(kind: .pixmap(mode), serial: 7, ust: msc * 16_667, msc: msc)
    }

    /// Host time `ms` milliseconds after vblank 0.
    func at(_ ms: Double) -> Duration { .microseconds(Int64(ms * 1000)) }

    @Test("copies at vblanks of their own: each frame is reported shown at its vblank once the next is known")
    func copiesAtTheirVblanks() {
        var matcher = XPresentFrameMatcher()
        #expect(matcher.presented(frame: 1, at: at(5)) == XPresentFrameMatcher.serial(of: 1))
        // Frame 1's vblank, no later frame yet: it waits for a later vblank to be reported.
        var taken = matcher.take([notify(1, msc: 1)], latestMSC: 1)
        #expect(taken.reports.isEmpty && taken.waitsForVblankAfter == 1)
        // Frame 2 presented well after vblank 1: frame 1 cannot share it.
        _ = matcher.presented(frame: 2, at: at(20))
        taken = matcher.take([], latestMSC: 1)
        #expect(taken.reports == [PresentationReport(frame: 1, presentedTime: .microseconds(16_667), msc: 1, mode: .copy)])
        // A later vblank reported (the clock's) releases frame 2.
        taken = matcher.take([notify(2, msc: 2)], latestMSC: 3)
        #expect(taken.reports.map(\.frame) == [2] && taken.reports[0].mode == .copy && taken.reports[0].msc == 2)
        #expect(!matcher.usesPixmapCompletions)
    }

    @Test("frames copied before the same vblank: all but the last are reported skipped, in one batch or two")
    func replacedBeforeTheVblank() {
        var matcher = XPresentFrameMatcher()
        _ = matcher.presented(frame: 1, at: at(2))
        _ = matcher.presented(frame: 2, at: at(3))
        _ = matcher.presented(frame: 3, at: at(4))
        // Frame 1's completion alone: frame 2 was presented before vblank 1, so frame 1 waits.
        var taken = matcher.take([notify(1, msc: 1)], latestMSC: 1)
        #expect(taken.reports.isEmpty && taken.waitsForVblankAfter == nil)
        taken = matcher.take([notify(2, msc: 1), notify(3, msc: 1)], latestMSC: 2)
        #expect(taken.reports.map(\.frame) == [1, 2, 3])
        #expect(taken.reports.map(\.mode) == [.skip, .skip, .copy])
        #expect(taken.reports.map(\.presentedTime) == [nil, nil, .microseconds(16_667)])
        #expect(taken.reports.allSatisfy { $0.msc == 1 })
    }

    @Test("a driver presenting pixmaps: its completions report frames in order with their modes; no NotifyMSC after")
    func pixmapCompletions() {
        var matcher = XPresentFrameMatcher()
        for frame in UInt64(1)...3 { _ = matcher.presented(frame: frame, at: at(Double(frame))) }
        let taken = matcher.take([pixmap(.flip, msc: 1), pixmap(.skip, msc: 2), notify(2, msc: 2), pixmap(.copy, msc: 2)],
                                 latestMSC: 2)
        #expect(matcher.usesPixmapCompletions)
        #expect(taken.reports == [
            PresentationReport(frame: 1, presentedTime: .microseconds(16_667), msc: 1, mode: .flip),
            PresentationReport(frame: 2, presentedTime: nil, msc: 2, mode: .skip),
            PresentationReport(frame: 3, presentedTime: .microseconds(33_334), msc: 2, mode: .copy),
        ])
        #expect(matcher.presented(frame: 4, at: at(40)) == nil, "pixmap completions report frame 4")
        #expect(matcher.take([pixmap(.flip, msc: 3)], latestMSC: 3).reports.map(\.frame) == [4])
    }

    @Test("pixmap completions that start after frames were reported from NotifyMSC: those frames' completions are skipped")
    func switchToPixmapCompletions() {
        var matcher = XPresentFrameMatcher()
        _ = matcher.presented(frame: 1, at: at(5))
        _ = matcher.presented(frame: 2, at: at(21))
        // Frame 1 reported from its NotifyMSC (frame 2 came after its vblank).
        #expect(matcher.take([notify(1, msc: 1)], latestMSC: 1).reports.map(\.frame) == [1])
        // Then the driver's completion for frame 1, and frame 2's: only frame 2 is reported,
        // from the pixmap completion, and its NotifyMSC result gives way.
        let taken = matcher.take([pixmap(.copy, msc: 1), notify(2, msc: 2), pixmap(.flip, msc: 2)], latestMSC: 2)
        #expect(taken.reports == [PresentationReport(frame: 2, presentedTime: .microseconds(33_334), msc: 2, mode: .flip)])
    }

    @Test("serials: the feedback's have the high bit, the clock's do not")
    func serials() {
        #expect(XPresentFrameMatcher.isFeedback(serial: XPresentFrameMatcher.serial(of: 5)))
        #expect(!XPresentFrameMatcher.isFeedback(serial: 5))
        #expect(XPresentFrameMatcher.serial(of: 0x8000_0005) == XPresentFrameMatcher.serial(of: 5))
    }
}
