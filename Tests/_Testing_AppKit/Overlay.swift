// Swift Testing declares a cross-import overlay for Apple's AppKit: a file that imports
// Testing and AppKit (or Cocoa, which re-exports it) makes the compiler load a module of
// this name. On Linux SwiftGPU's AppKit is the one imported, and the overlay has nothing
// to add: this empty module answers the look-up for the package's tests (decision 0105).
