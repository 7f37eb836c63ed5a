import Testing
import PointerInput

@Suite("Input samples")
struct InputSampleTests {
    @Test("a measured sample has no estimates and is not predicted by default")
    func defaults() {
        let sample = InputSample(device: .pen, contact: 1, phase: .moved, position: [10, 20], pressure: 0.5,
                                 timestamp: .milliseconds(16))
        #expect(!sample.isPredicted && sample.estimatedProperties.isEmpty && sample.updateSequence == nil)
        #expect(sample.pressure == 0.5 && sample.tilt == nil)
    }
}
