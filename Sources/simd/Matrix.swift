/// What simd's matrices share: a matrix of `Row.scalarCount` columns of
/// `Column.scalarCount` elements each, stored as C stores `Column columns[n]`.
///
/// The float matrix types of `<simd/simd.h>` (`simd_float2x2` … `simd_float4x4`) and
/// `simd_double2x2` conform; their initializers, subscripts, operators and `transpose` come
/// from this protocol's extensions, written once for every shape, and the square ones' too
/// from `_SIMDSquareMatrix`. It is not Apple's API: Apple declares the same members on
/// each type. Conform no type of your own.
public protocol _SIMDMatrix {
    /// The type of the matrix's elements.
    associatedtype Scalar: BinaryFloatingPoint

    /// One column of the matrix: one element per row.
    associatedtype Column: SIMD where Column.Scalar == Scalar

    /// One row of the matrix: one element per column.
    associatedtype Row: SIMD where Row.Scalar == Scalar

    /// The matrix with as many columns as this one has rows, and as many rows as it has
    /// columns.
    associatedtype Transpose: _SIMDMatrix where Transpose.Scalar == Scalar, Transpose.Column == Row,
        Transpose.Row == Column

    /// The matrix of zeros.
    init()
}

extension _SIMDMatrix {
    /// The number of columns.
    @inlinable
    static var columnCount: Int { Row().scalarCount }

    /// The number of rows.
    @inlinable
    static var rowCount: Int { Column().scalarCount }

    /// Stops, naming the call, when `index` is not below `count`.
    @inlinable
    static func check(_ index: Int, _ what: StaticString, below count: Int, in call: StaticString) {
        guard index >= 0, index < count else {
            fatalError("SwiftGPU API misuse: \(Self.self).\(call): \(what) \(index) is not in 0..<\(count)")
        }
    }

    /// The matrix with `scalar` on its main diagonal and zeros elsewhere.
    @inlinable
    public init(_ scalar: Scalar) {
        self.init()
        for index in 0..<min(Self.columnCount, Self.rowCount) {
            self[index, index] = scalar
        }
    }

    /// The matrix whose columns are `columns`, which must hold one column per column of the
    /// matrix.
    @inlinable
    public init(_ columns: [Column]) {
        guard columns.count == Self.columnCount else {
            fatalError("SwiftGPU API misuse: \(Self.self).init(_:): \(columns.count) columns given, \(Self.columnCount) needed")
        }
        self.init()
        for (index, column) in columns.enumerated() {
            self[index] = column
        }
    }

    /// The matrix whose rows are `rows`, which must hold one row per row of the matrix.
    @inlinable
    public init(rows: [Row]) {
        guard rows.count == Self.rowCount else {
            fatalError("SwiftGPU API misuse: \(Self.self).init(rows:): \(rows.count) rows given, \(Self.rowCount) needed")
        }
        self.init()
        for (row, values) in rows.enumerated() {
            for column in 0..<Self.columnCount {
                self[column, row] = values[column]
            }
        }
    }

    /// The column at `column`.
    @inlinable
    public subscript(column: Int) -> Column {
        get {
            Self.check(column, "column", below: Self.columnCount, in: "subscript(_:)")
            return withUnsafeBytes(of: self) {
                $0.load(fromByteOffset: column * MemoryLayout<Column>.stride, as: Column.self)
            }
        }
        set {
            Self.check(column, "column", below: Self.columnCount, in: "subscript(_:)")
            withUnsafeMutableBytes(of: &self) {
                $0.storeBytes(of: newValue, toByteOffset: column * MemoryLayout<Column>.stride, as: Column.self)
            }
        }
    }

    /// The element at `row` of the column at `column`.
    @inlinable
    public subscript(column: Int, row: Int) -> Scalar {
        get {
            Self.check(row, "row", below: Self.rowCount, in: "subscript(_:_:)")
            return self[column][row]
        }
        set {
            Self.check(row, "row", below: Self.rowCount, in: "subscript(_:_:)")
            self[column][row] = newValue
        }
    }

    /// The matrix with its rows and columns swapped.
    @inlinable
    public var transpose: Transpose {
        var result = Transpose()
        for column in 0..<Self.columnCount {
            for row in 0..<Self.rowCount {
                result[row, column] = self[column, row]
            }
        }
        return result
    }

    /// Applies `transform` to each pair of columns of `lhs` and `rhs`.
    @inlinable
    static func columnwise(_ lhs: Self, _ rhs: Self, _ transform: (Column, Column) -> Column) -> Self {
        var result = Self()
        for column in 0..<columnCount {
            result[column] = transform(lhs[column], rhs[column])
        }
        return result
    }

    /// The sum of two matrices, element by element.
    @inlinable
    public static func + (lhs: Self, rhs: Self) -> Self { columnwise(lhs, rhs, +) }

    /// The difference of two matrices, element by element.
    @inlinable
    public static func - (lhs: Self, rhs: Self) -> Self { columnwise(lhs, rhs, -) }

    /// The matrix with every element negated.
    @inlinable
    public static prefix func - (matrix: Self) -> Self { columnwise(matrix, matrix) { column, _ in -column } }

    /// The matrix with every element multiplied by `scalar`.
    @inlinable
    public static func * (scalar: Scalar, matrix: Self) -> Self {
        columnwise(matrix, matrix) { column, _ in column * scalar }
    }

    /// The matrix with every element multiplied by `scalar`.
    @inlinable
    public static func * (matrix: Self, scalar: Scalar) -> Self { scalar * matrix }

    /// The matrix product `matrix` × `vector`, `vector` taken as a column.
    @inlinable
    public static func * (matrix: Self, vector: Row) -> Column {
        var result = Column()
        for column in 0..<columnCount {
            result += matrix[column] * vector[column]
        }
        return result
    }

    /// The matrix product `vector` × `matrix`, `vector` taken as a row.
    @inlinable
    public static func * (vector: Column, matrix: Self) -> Row {
        var result = Row()
        for column in 0..<columnCount {
            result[column] = (vector * matrix[column]).sum()
        }
        return result
    }

    /// Adds `rhs` to `lhs`.
    @inlinable
    public static func += (lhs: inout Self, rhs: Self) { lhs = lhs + rhs }

    /// Subtracts `rhs` from `lhs`.
    @inlinable
    public static func -= (lhs: inout Self, rhs: Self) { lhs = lhs - rhs }

    /// Multiplies every element of `lhs` by `rhs`.
    @inlinable
    public static func *= (lhs: inout Self, rhs: Scalar) { lhs = lhs * rhs }

    /// Whether every element of `lhs` equals the one at the same place of `rhs`.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        (0..<columnCount).allSatisfy { lhs[$0] == rhs[$0] }
    }

    /// Whether some element of `lhs` differs from the one at the same place of `rhs`.
    @inlinable
    public static func != (lhs: Self, rhs: Self) -> Bool { !(lhs == rhs) }
}

extension _SIMDMatrix where Row == SIMD2<Scalar> {
    /// The matrix whose columns are `c0` and `c1`.
    @inlinable
    public init(_ c0: Column, _ c1: Column) {
        self.init()
        (self[0], self[1]) = (c0, c1)
    }
}

extension _SIMDMatrix where Row == SIMD3<Scalar> {
    /// The matrix whose columns are `c0`, `c1` and `c2`.
    @inlinable
    public init(_ c0: Column, _ c1: Column, _ c2: Column) {
        self.init()
        (self[0], self[1], self[2]) = (c0, c1, c2)
    }
}

extension _SIMDMatrix where Row == SIMD4<Scalar> {
    /// The matrix whose columns are `c0`, `c1`, `c2` and `c3`.
    @inlinable
    public init(_ c0: Column, _ c1: Column, _ c2: Column, _ c3: Column) {
        self.init()
        (self[0], self[1], self[2], self[3]) = (c0, c1, c2, c3)
    }
}
