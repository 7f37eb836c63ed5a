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

    @Test("without /proc, the folder comes from the path the process was started with; a bare name says none")
    func folderOfStartPath() {
        #expect(ExecutableFolder.folder(of: "/usr/bin/app") == "/usr/bin")
        #expect(ExecutableFolder.folder(of: "/app") == "/")
        #expect(ExecutableFolder.folder(of: ".build/debug/app", relativeTo: "/work") == "/work/.build/debug")
        #expect(ExecutableFolder.folder(of: "bin/app", relativeTo: "/") == "/bin")
        #expect(ExecutableFolder.folder(of: "bin/app") == nil)
        #expect(ExecutableFolder.folder(of: "app", relativeTo: "/work") == nil)
    }
}
