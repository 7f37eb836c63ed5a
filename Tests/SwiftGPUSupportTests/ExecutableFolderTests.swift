import Foundation
import Testing
import SwiftGPUSupport

@Suite struct ExecutableFolderTests {
    @Test func isTheFolderFoundationsMainBundleNames() throws {
        let folder = try #require(ExecutableFolder.path)
        #expect(folder.hasPrefix("/"))
        #expect(folder == Bundle.main.bundlePath)
        // The running executable is in it.
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #expect(executable.hasPrefix(folder + "/"))
        #expect(!executable.dropFirst(folder.count + 1).contains("/"))
    }
}
