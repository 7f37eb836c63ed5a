/// The counter samples a pass takes at its start and end, checked from its descriptor's
/// `sampleBufferAttachments` when its encoder is made. Both are recorded outside the pass's
/// dynamic rendering, where a query may be reset: the starts just before it begins, the
/// ends just after it ends.
struct PassCounterSamples {
    /// One sample: a timestamp at `point`, or (for a statistic buffer) a sample of zeros.
    struct Sample {
        let buffer: CounterSampleBuffer
        let index: Int
        let point: CommandRecorder.TimestampPoint
    }

    private var starts: [Sample] = []
    private var ends: [Sample] = []
    /// The statistic sample that counts the whole pass, if any.
    private var statistics: Sample?

    /// No samples.
    init() {}

    /// A render pass's samples. Stops with a misuse message for an index outside its
    /// buffer, for more than one statistic buffer, for a statistic buffer with both a
    /// vertex and a fragment end (Vulkan counts one pipeline statistics query at a time,
    /// and the pass's counts go to one sample), and for a statistic buffer in a parallel pass.
    init(render attachments: [RenderPassSampleBufferAttachmentDescriptor], parallel: Bool, call: String) {
        for (slot, attachment) in attachments.enumerated() {
            guard let buffer = attachment.sampleBuffer else { continue }
            func index(_ value: Int, _ name: String) -> Int? {
                Self.checked(value, of: buffer, "sampleBufferAttachments[\(slot)].\(name)", call: call)
            }
            let startVertex = index(attachment.startOfVertexSampleIndex, "startOfVertexSampleIndex")
            let endVertex = index(attachment.endOfVertexSampleIndex, "endOfVertexSampleIndex")
            let startFragment = index(attachment.startOfFragmentSampleIndex, "startOfFragmentSampleIndex")
            let endFragment = index(attachment.endOfFragmentSampleIndex, "endOfFragmentSampleIndex")
            if buffer.samplesStatistics {
                if parallel { misuse("\(call): statistic counters are not sampled in a parallel render pass") }
                if endVertex != nil, endFragment != nil {
                    misuse("\(call): sampleBufferAttachments[\(slot)] gives a statistic sample buffer both an endOfVertexSampleIndex "
                        + "and an endOfFragmentSampleIndex; SwiftGPU counts a pass's statistics into one sample: give one")
                }
                note(statistics: buffer, starts: [startVertex, startFragment], end: endFragment ?? endVertex, slot: slot, call: call)
            } else {
                starts += [startVertex, startFragment].compactMap { $0 }.map { Sample(buffer: buffer, index: $0, point: .immediately) }
                if let endVertex { ends.append(Sample(buffer: buffer, index: endVertex, point: .afterVertexWork)) }
                if let endFragment { ends.append(Sample(buffer: buffer, index: endFragment, point: .afterAllWork)) }
            }
        }
    }

    /// A compute or blit pass's samples. Stops with a misuse message for an index outside
    /// its buffer and for more than one statistic buffer.
    init(encoder attachments: [EncoderSampleBufferAttachmentDescriptor], call: String) {
        for (slot, attachment) in attachments.enumerated() {
            guard let buffer = attachment.sampleBuffer else { continue }
            let start = Self.checked(attachment.startOfEncoderSampleIndex, of: buffer,
                                     "sampleBufferAttachments[\(slot)].startOfEncoderSampleIndex", call: call)
            let end = Self.checked(attachment.endOfEncoderSampleIndex, of: buffer,
                                   "sampleBufferAttachments[\(slot)].endOfEncoderSampleIndex", call: call)
            if buffer.samplesStatistics {
                note(statistics: buffer, starts: [start], end: end, slot: slot, call: call)
            } else {
                if let start { starts.append(Sample(buffer: buffer, index: start, point: .immediately)) }
                if let end { ends.append(Sample(buffer: buffer, index: end, point: .afterAllWork)) }
            }
        }
    }

    /// Notes a statistic buffer's zero starts and its end; stops for a second one.
    private mutating func note(statistics buffer: CounterSampleBuffer, starts: [Int?], end: Int?, slot: Int, call: String) {
        if let other = (self.starts + ends + (statistics.map { [$0] } ?? [])).first(where: { $0.buffer.samplesStatistics }) {
            misuse("\(call): sampleBufferAttachments[\(slot)] is a second statistic sample buffer in the pass (after "
                + "'\(other.buffer.label)'); Vulkan counts one pipeline statistics query at a time")
        }
        self.starts += starts.compactMap { $0 }.map { Sample(buffer: buffer, index: $0, point: .immediately) }
        if let end { statistics = Sample(buffer: buffer, index: end, point: .afterAllWork) }
    }

    /// `value` when it is one of `buffer`'s samples, nil for ``counterDontSample``; stops
    /// with a misuse message otherwise.
    static func checked(_ value: Int, of buffer: CounterSampleBuffer, _ name: String, call: String) -> Int? {
        guard value != counterDontSample else { return nil }
        guard (0..<buffer.sampleCount).contains(value) else {
            misuse("\(call): \(name) \(value) is outside the sample buffer '\(buffer.label)''s 0..<\(buffer.sampleCount)")
        }
        return value
    }

    /// Records the start samples, before the pass begins; keeps the buffers alive until the
    /// command buffer completes.
    func recordStart(in context: CommandRecorder) {
        for sample in starts {
            context.encoding.retained.append(sample.buffer)
            if sample.buffer.samplesStatistics {
                context.beginStatistics(sample.buffer.queries, sample: sample.index)
                context.endStatistics(sample.buffer.queries, sample: sample.index)
            } else {
                context.writeTimestamp(sample.buffer.queries, sample: sample.index, at: sample.point)
            }
        }
        if let statistics {
            context.encoding.retained.append(statistics.buffer)
            context.beginStatistics(statistics.buffer.queries, sample: statistics.index)
        }
    }

    /// Whether the pass samples nothing (most passes).
    var isEmpty: Bool { starts.isEmpty && ends.isEmpty && statistics == nil }

    /// Records the end samples, after the pass ended.
    func recordEnd(in context: CommandRecorder) {
        if let statistics { context.endStatistics(statistics.buffer.queries, sample: statistics.index) }
        for sample in ends {
            context.encoding.retained.append(sample.buffer)
            context.writeTimestamp(sample.buffer.queries, sample: sample.index, at: sample.point)
        }
    }
}

extension CounterSampleBuffer {
    /// Checks that an encoder may write sample `index` at `point` (Metal's
    /// `sampleCounters`) and keeps the buffer alive until the command buffer completes.
    /// Stops with a misuse message where the device does not sample at `point`, for a
    /// statistic buffer (statistics are counted over passes, through
    /// `sampleBufferAttachments`), for a buffer of another device, and for an index outside
    /// the buffer.
    func checkSample(_ index: Int, at point: CounterSamplingPoint, in context: CommandRecorder, call: StaticString) {
        guard device.supportsCounterSampling(point) else {
            misuse("\(call): this device does not sample counters \(point) (supportsCounterSampling(.\(point)) is false); "
                + "sample a pass's start and end with its descriptor's sampleBufferAttachments")
        }
        guard !samplesStatistics else {
            misuse("\(call): the sample buffer '\(label)' samples statistics, which SwiftGPU counts over passes: sample them "
                + "with a pass descriptor's sampleBufferAttachments")
        }
        guard device.backend === context.device else {
            misuse("\(call): the sample buffer '\(label)' belongs to another device")
        }
        guard (0..<sampleCount).contains(index) else {
            misuse("\(call): sampleIndex \(index) is outside the sample buffer '\(label)''s 0..<\(sampleCount)")
        }
        context.encoding.retained.append(self)
    }

    /// Writes sample `index` from a compute or blit encoder at `point` (Metal's
    /// `sampleCounters`): a timestamp, once earlier commands are done when `barrier`. Stops
    /// as ``checkSample(_:at:in:call:)`` does.
    func sample(at index: Int, barrier: Bool, point: CounterSamplingPoint, in context: CommandRecorder, call: StaticString) {
        checkSample(index, at: point, in: context, call: call)
        context.writeTimestamp(queries, sample: index, at: barrier ? .afterAllWork : .immediately)
    }
}
