import Testing
@testable import SwiftGPUSPIRV

@Suite("SPIR-V specialization constants")
struct SPIRVSpecializationConstantTests {
    @Test("scalar constants with a SpecId are listed by it with their types, OpSpecConstantTrue's and the local size's too")
    func reflected() throws {
        let module = try SPIRVModule(words: SPIRVFixtures.specConstants)
        #expect(module.specializationConstants == [
            SPIRVSpecializationConstant(specId: 0, name: "", type: .bool),
            SPIRVSpecializationConstant(specId: 1, name: "", type: .int(width: 32, signed: true)),
            SPIRVSpecializationConstant(specId: 2, name: "", type: .float(width: 32)),
            SPIRVSpecializationConstant(specId: 3, name: "", type: .int(width: 32, signed: false)),
        ])
        #expect(module.entryPoints[0].localSizeSpecIds == [3, nil, nil])
    }

    @Test("a module without specialization constants lists none")
    func none() throws {
        #expect(try SPIRVModule(words: SPIRVFixtures.computeBuffers).specializationConstants.isEmpty)
    }
}
