import SwiftGPUSPIRV

/// The kernel a blit encoder's `resolveCounters(_:range:destinationBuffer:destinationOffset:)`
/// runs: it turns a timestamp sample buffer's copied queries (ticks and availability, two
/// `UInt64`s a sample) into Metal's `MTLCounterResultTimestamp` layout, host nanoseconds as
/// `resolveCounterRange(_:)` gives them, in the same integer steps as the CPU
/// (`hostNanoseconds(ofTicks:)`): ⌊ticks × multiplier / 2^shift⌋ plus the calibration
/// offset, 0 when negative, `counterErrorValue` for a sample not written. It reaches both
/// buffers through their addresses, given in push constants, so it needs no descriptors;
/// 64-bit arithmetic is done in 32-bit halves (SwiftGPU enables no `shaderInt64`).
enum CounterResolveKernel {
    static let source = """
        #version 450
        #extension GL_EXT_buffer_reference : require
        #pragma shader_stage(compute)
        layout(local_size_x = 64) in;
        layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer Samples { uvec4 samples[]; };
        layout(buffer_reference, std430, buffer_reference_align = 8) writeonly buffer Results { uvec2 results[]; };
        layout(push_constant, std430) uniform Resolve {
            Samples source;
            Results destination;
            uvec2 offset;
            uint count;
            uint multiplier;
            uint shift;
        };
        void main() {
            uint i = gl_GlobalInvocationID.x;
            if (i >= count) return;
            uvec4 sample_ = source.samples[i];   // ticks (low, high), availability (low, high)
            if (sample_.z == 0u && sample_.w == 0u) {
                destination.results[i] = uvec2(0xFFFFFFFFu);
                return;
            }
            // ticks × multiplier, 96 bits: (w2, w1, lowLow).
            uint lowHigh, lowLow, highHigh, highLow, carry;
            umulExtended(sample_.x, multiplier, lowHigh, lowLow);
            umulExtended(sample_.y, multiplier, highHigh, highLow);
            uint w1 = uaddCarry(lowHigh, highLow, carry);
            uint w2 = highHigh + carry;
            // Shifted right by `shift` (0...63), the low 64 bits kept.
            uint words = shift / 32u, bits = shift % 32u;
            uint a0 = words == 0u ? lowLow : (words == 1u ? w1 : w2);
            uint a1 = words == 0u ? w1 : (words == 1u ? w2 : 0u);
            uint a2 = words == 0u ? w2 : 0u;
            uint r0 = bits == 0u ? a0 : (a0 >> bits) | (a1 << (32u - bits));
            uint r1 = bits == 0u ? a1 : (a1 >> bits) | (a2 << (32u - bits));
            // Plus the offset, a two's-complement Int64; 0 when the sum is negative.
            uint low = uaddCarry(r0, offset.x, carry);
            uint high = r1 + offset.y + carry;
            destination.results[i] = (high & 0x80000000u) != 0u ? uvec2(0u) : uvec2(low, high);
        }
        """

    /// The kernel's pipeline on `device`, its push constants (what
    /// `CommandRecorder.resolveTimestamps` pushes) its only input.
    static func makePipeline(on device: Device) throws(VulkanError) -> PipelineObject {
        let words: [UInt32]
        switch GLSLCompiler.compile(source, options: CompileOptions().values) {
        case .success(let compiled): words = compiled
        case .failure(let error): fatalError("SwiftGPU's counter resolve kernel did not compile: \(error)")
        }
        return try PipelineObject(computeWith: device.backend, words: words, entryPoint: "main", bindings: [],
                                  pushConstantRanges: [PushConstantRange(stage: .compute, offset: 0,
                                                                         size: CommandRecorder.resolveConstantsSize)],
                                  cache: device.pipelineCache.cache)
    }
}
