import FramePacing

/// One CompleteNotify event of the Present extension, unpacked.
struct XPresentCompletion: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// The answer to a NotifyMSC request: `serial` is the request's.
        case notifyMSC
        /// A PresentPixmap finished (the Vulkan driver's, on hardware drivers): `serial` is
        /// the driver's own.
        case pixmap(PresentCompletionMode)
    }
    var kind: Kind
    var serial: UInt32
    /// Microseconds of `CLOCK_MONOTONIC`.
    var ust: UInt64
    var msc: UInt64
}

/// Matches the Present extension's completions to a window's presented frames.
///
/// Two ways of presenting reach an X window, and the Vulkan driver picks one:
/// - A copy with PutImage (Mesa's software drivers, lavapipe among them): the server
///   reports nothing of it, so after each present the feedback sends a NotifyMSC for the
///   next vblank on the same connection; the server handles it after the copy, and its
///   completion is the vblank that first shows the frame. Frames whose completions name the
///   same vblank replaced one another before it: all but the last are reported skipped. A
///   frame is therefore reported once it is known that no later frame shares its vblank:
///   the next frame's completion has come, the next frame was presented after the vblank
///   (plus `sameVblankMargin`), or the server has reported a later vblank.
/// - PresentPixmap (hardware drivers): the server reports each present with a pixmap
///   completion that says when and how (copy, flip, skip); they come in present order and
///   are matched to frames in that order. From the first one on, no NotifyMSC is sent;
///   frames already reported from their NotifyMSC account for as many pixmap completions.
struct XPresentFrameMatcher {
    /// Serials of the feedback's NotifyMSC requests have this bit; the clock's do not.
    static let feedbackBit: UInt32 = 0x8000_0000
    /// A frame presented this long after a vblank's time was handled by the server after
    /// that vblank, so it cannot share it.
    static let sameVblankMargin: Duration = .milliseconds(1)

    /// A presented frame not yet reported.
    private struct Pending {
        var frame: UInt64
        /// Host monotonic time when its present call returned.
        var presentedAt: Duration
        var result: (ust: UInt64, msc: UInt64, mode: PresentCompletionMode)?
    }

    /// Whether the driver's pixmap completions report the frames.
    private(set) var usesPixmapCompletions = false
    /// Frames presented and not yet reported, in present order.
    private var pending: [Pending] = []
    /// Pixmap completions still to come for frames already reported from their NotifyMSC.
    private var completionsToSkip = 0
    /// Frames reported from their NotifyMSC so far.
    private var reportedFromNotify = 0

    /// Whether `serial` is one of the feedback's NotifyMSC requests.
    static func isFeedback(serial: UInt32) -> Bool { serial & feedbackBit != 0 }

    /// The NotifyMSC serial of `frame`.
    static func serial(of frame: UInt64) -> UInt32 { feedbackBit | UInt32(truncatingIfNeeded: frame & 0x7FFF_FFFF) }

    /// The present call for `frame` returned at `time` having shown it: the serial of the
    /// NotifyMSC to send for it, or nil when pixmap completions report frames.
    mutating func presented(frame: UInt64, at time: Duration) -> UInt32? {
        pending.append(Pending(frame: frame, presentedAt: time))
        return usesPixmapCompletions ? nil : Self.serial(of: frame)
    }

    /// Takes the completions the server sent together, with `latestMSC` the latest vblank
    /// the server has reported by now; returns the reports they complete, in present order,
    /// and the MSC of a frame that waits only for a later vblank to be reported (the
    /// caller asks for the vblank after it), if one does.
    mutating func take(_ completions: [XPresentCompletion], latestMSC: UInt64) -> (reports: [PresentationReport], waitsForVblankAfter: UInt64?) {
        for completion in completions {
            switch completion.kind {
            case .notifyMSC:
                guard Self.isFeedback(serial: completion.serial), !usesPixmapCompletions,
                      let index = pending.firstIndex(where: { $0.result == nil && Self.serial(of: $0.frame) == completion.serial })
                else { continue }
                pending[index].result = (completion.ust, completion.msc, .copy)
            case .pixmap(let mode):
                if !usesPixmapCompletions {
                    // From now on pixmap completions report frames; results from NotifyMSC
                    // not yet reported give way to them.
                    usesPixmapCompletions = true
                    completionsToSkip = reportedFromNotify
                    for index in pending.indices { pending[index].result = nil }
                }
                if completionsToSkip > 0 {
                    completionsToSkip -= 1
                    continue
                }
                guard let index = pending.firstIndex(where: { $0.result == nil }) else { continue }
                pending[index].result = (completion.ust, completion.msc, mode)
            }
        }
        var reports: [PresentationReport] = []
        var waits: UInt64?
        while let head = pending.first, let result = head.result {
            var replaced = false
            if !usesPixmapCompletions {
                if pending.count > 1 {
                    let next = pending[1]
                    if let nextResult = next.result {
                        replaced = nextResult.msc == result.msc
                    } else if next.presentedAt <= .microseconds(Int64(result.ust)) + Self.sameVblankMargin {
                        break   // the next frame may still land on this vblank
                    }
                } else if latestMSC <= result.msc {
                    waits = result.msc
                    break
                }
                reportedFromNotify += 1
            }
            pending.removeFirst()
            let skipped = replaced || result.mode == .skip
            reports.append(PresentationReport(frame: head.frame,
                                              presentedTime: skipped ? nil : .microseconds(Int64(result.ust)),
                                              msc: result.msc, mode: skipped ? .skip : result.mode))
        }
        return (reports, waits)
    }
}
