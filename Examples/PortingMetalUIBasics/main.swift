// Runs the ported sample headless: AppKit would make the view controller, load its view
// and have MetalKit draw it; here that is three calls. Then checks the pixels it drew
// (added for the test suite) and, given a path, writes them to a PNG.

import Foundation
import GPU
import PNG

let controller = ImageViewController()
controller.loadView()
controller.mtkView.draw()

// getBytes waits for the command buffer that drew the drawable.
let texture = controller.mtkView.lastDrawable!.texture
let (width, height) = (texture.width, texture.height)
var read = [UInt8](repeating: 0, count: width * height * 4)
texture.getBytes(&read, bytesPerRow: width * 4, from: Region(x: 0, y: 0, width: width, height: height), mipmapLevel: 0)
let bgra = read

/// The drawn pixel at (x, y) as RGBA.
@MainActor func pixel(_ x: Int, _ y: Int) -> [Int] {
    let i = (y * width + x) * 4
    return [Int(bgra[i + 2]), Int(bgra[i + 1]), Int(bgra[i]), Int(bgra[i + 3])]
}

let background = ClearColor.darkBackground
let backgroundRGBA = [background.red, background.green, background.blue, background.alpha].map { $0 * 255 }
// Each tile's centre shows its cell's colour, premultiplied and blended over the background
// (one + oneMinusSourceAlpha); between and around the tiles is the background.
var checks: [(what: String, at: (Int, Int), expected: [Double])] = []
for row in 0..<3 {
    for column in 0..<3 {
        let source = sampleColor(row: row, column: column).map(Double.init)
        let expected = (0..<4).map { source[$0] + backgroundRGBA[$0] * (1 - source[3] / 255) }
        checks.append(("tile \(row),\(column)", (column * 310 + 190, row * 310 + 190), expected))
    }
}
checks.append(("gap between tiles 0,0 and 0,1", (345, 190), backgroundRGBA))
checks.append(("gap between tiles 0,0 and 1,0", (190, 345), backgroundRGBA))
checks.append(("margin", (10, 10), backgroundRGBA))

var passed = 0
for check in checks {
    let got = pixel(check.at.0, check.at.1)
    let ok = zip(got, check.expected).allSatisfy { abs(Double($0) - $1) <= 2 }
    if ok { passed += 1 }
    print("\(check.what) at \(check.at.0),\(check.at.1): RGBA \(got) \(ok ? "as expected" : "expected \(check.expected.map { Int($0.rounded()) })")")
}
print("\(passed) of \(checks.count) pixels as expected")

if CommandLine.arguments.count > 1 {
    let rgba = (0..<width * height).flatMap { pixel($0 % width, $0 / width).map(UInt8.init) }
    try Image(width: width, height: height, pixels: rgba).writePNG(to: URL(fileURLWithPath: CommandLine.arguments[1]))
    print("wrote \(CommandLine.arguments[1])")
}
exit(passed == checks.count ? 0 : 1)
