import GPUTestSupport
import Testing
@testable import GPU

/// Metal's atomics compiled at run time: `atomic_uint` and `atomic_int` in device and
/// threadgroup memory, changed by the `atomic_*_explicit` functions, counted on the device.
@Suite("Run-time Metal Shading Language atomics", .validated)
struct MetalAtomicsTests {
    static let source = """
        #include <metal_stdlib>
        using namespace metal;
        kernel void histogram(device const uint* values [[buffer(0)]],
                              device atomic_uint* bins [[buffer(1)]],
                              device atomic_int* totals [[buffer(2)]],
                              uint i [[thread_position_in_grid]],
                              uint local [[thread_index_in_threadgroup]],
                              uint group [[threadgroup_position_in_grid]]) {
            threadgroup atomic_uint odd;
            if (local == 0) { atomic_store_explicit(&odd, 0, memory_order_relaxed); }
            threadgroup_barrier(mem_flags::mem_threadgroup);
            atomic_fetch_add_explicit(&bins[values[i] % 8], 1, memory_order_relaxed);
            if (values[i] % 2 == 1) { atomic_fetch_add_explicit(&odd, 1u, memory_order_relaxed); }
            atomic_fetch_sub_explicit(totals, int(values[i]), memory_order_relaxed);
            atomic_fetch_max_explicit(&totals[1], int(values[i]), memory_order_relaxed);
            atomic_fetch_min_explicit(&totals[2], int(values[i]), memory_order_relaxed);
            atomic_fetch_or_explicit(&bins[8], 1u << (values[i] % 32), memory_order_relaxed);
            threadgroup_barrier(mem_flags::mem_threadgroup);
            if (local == 0) {
                atomic_exchange_explicit(&bins[9 + group], atomic_load_explicit(&odd, memory_order_relaxed), memory_order_relaxed);
            }
        }
        """

    @Test("a histogram, a threadgroup count and signed sums, minima and maxima by atomics match the CPU's")
    func histogram() throws {
        let gpu = try TestGPU()
        let library = try gpu.device.makeLibrary(source: Self.source, options: nil)
        let pipeline = try gpu.device.makeComputePipelineState(function: try library.makeFunction(name: "histogram"))
        let values = (0..<256).map { UInt32(($0 * 37 + 11) % 101) }
        let bins = try gpu.buffer([UInt32](repeating: 0, count: 13))
        let totals = try gpu.buffer([Int32(0), Int32.min, Int32.max])
        try gpu.dispatch(pipeline, buffers: [try gpu.buffer(values), bins, totals], groups: 4, width: 64)
        let counted = Array(UnsafeBufferPointer(start: bins.contents().bindMemory(to: UInt32.self, capacity: 13), count: 13))
        let signed = Array(UnsafeBufferPointer(start: totals.contents().bindMemory(to: Int32.self, capacity: 3), count: 3))
        var expected = [UInt32](repeating: 0, count: 13)
        for value in values {
            expected[Int(value % 8)] += 1
            expected[8] |= 1 << (value % 32)
        }
        for group in 0..<4 { expected[9 + group] = UInt32(values[(group * 64)..<(group * 64 + 64)].filter { $0 % 2 == 1 }.count) }
        #expect(counted == expected)
        #expect(signed == [-Int32(values.reduce(0, +)), Int32(values.max()!), Int32(values.min()!)])
    }

    @Test("atomics are refused outside device and threadgroup memory, with a compare-exchange unsupported")
    func misuse() throws {
        let gpu = try TestGPU()
        func message(_ body: String) -> String {
            let source = "#include <metal_stdlib>\nusing namespace metal;\n"
                + "kernel void k(device atomic_int* a [[buffer(0)]], device int* b [[buffer(1)]]) {\n\(body)\n}\n"
            do {
                _ = try gpu.device.makeLibrary(source: source, options: nil)
            } catch .compilationFailed(_, let messages) {
                return messages.joined(separator: "\n")
            } catch {
                return "\(error)"
            }
            return "compiled"
        }
        #expect(message("atomic_fetch_add_explicit(b, 1, memory_order_relaxed);")
            == "program_source:4:27: error: 'atomic_fetch_add_explicit' takes a pointer to an atomic_int or atomic_uint, not 'int'")
        #expect(message("int expected = 0; atomic_compare_exchange_weak_explicit(a, &expected, 1, memory_order_relaxed, memory_order_relaxed);")
            == "program_source:4:19: error: unsupported: the function 'atomic_compare_exchange_weak_explicit'")
        #expect(message("a[0] = 1;") == "program_source:4:8: error: cannot convert 'int' to 'atomic_int'")
        #expect(message("atomic_fetch_add_explicit(a, 1, memory_order_seq_cst);")
            == "program_source:4:33: error: unsupported: the memory order 'memory_order_seq_cst'")
    }
}
