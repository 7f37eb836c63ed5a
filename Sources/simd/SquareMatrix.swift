/// What simd's square matrices share: a matrix of `Column.scalarCount` columns, each a
/// `Column`, stored as C stores `Column columns[n]`.
///
/// The matrix types of `<simd/simd.h>` (`simd_float2x2`, `simd_float3x3`, `simd_float4x4`
/// and their `double` counterparts) conform; their initializers, subscripts, operators,
/// `transpose`, `inverse` and `determinant` come from this protocol's extensions, written
/// once for every size. It is not Apple's API: Apple declares the same members on each
/// type. Conform no type of your own.
public protocol _SIMDSquareMatrix {
    /// The type of the matrix's elements.
    associatedtype Scalar: BinaryFloatingPoint

    /// One column of the matrix (and one row: the matrix is square).
    associatedtype Column: SIMD where Column.Scalar == Scalar

    /// The matrix of zeros.
    init()
}

extension _SIMDSquareMatrix {
    /// The number of columns (and of rows).
    @inlinable
    static var order: Int { Column().scalarCount }

    /// Stops, naming the call, when `index` is no column (or row) of the matrix.
    @inlinable
    static func check(_ index: Int, _ what: StaticString, in call: StaticString) {
        guard index >= 0, index < order else {
            fatalError("SwiftGPU API misuse: \(Self.self).\(call): \(what) \(index) is not in 0..<\(order)")
        }
    }

    /// The matrix with `diagonal` on its main diagonal and zeros elsewhere.
    @inlinable
    public init(diagonal: Column) {
        self.init()
        for index in 0..<Self.order {
            self[index, index] = diagonal[index]
        }
    }

    /// The matrix with `scalar` on its main diagonal and zeros elsewhere.
    @inlinable
    public init(_ scalar: Column.Scalar) {
        self.init(diagonal: Column(repeating: scalar))
    }

    /// The matrix whose columns are `columns`, which must hold one column per column of the
    /// matrix.
    @inlinable
    public init(_ columns: [Column]) {
        guard columns.count == Self.order else {
            fatalError("SwiftGPU API misuse: \(Self.self).init(_:): \(columns.count) columns given, \(Self.order) needed")
        }
        self.init()
        for (index, column) in columns.enumerated() {
            self[index] = column
        }
    }

    /// The matrix whose rows are `rows`, which must hold one row per row of the matrix.
    @inlinable
    public init(rows: [Column]) {
        guard rows.count == Self.order else {
            fatalError("SwiftGPU API misuse: \(Self.self).init(rows:): \(rows.count) rows given, \(Self.order) needed")
        }
        self.init()
        for (row, values) in rows.enumerated() {
            for column in 0..<Self.order {
                self[column, row] = values[column]
            }
        }
    }

    /// The column at `column`.
    @inlinable
    public subscript(column: Int) -> Column {
        get {
            Self.check(column, "column", in: "subscript(_:)")
            return withUnsafeBytes(of: self) {
                $0.load(fromByteOffset: column * MemoryLayout<Column>.stride, as: Column.self)
            }
        }
        set {
            Self.check(column, "column", in: "subscript(_:)")
            withUnsafeMutableBytes(of: &self) {
                $0.storeBytes(of: newValue, toByteOffset: column * MemoryLayout<Column>.stride, as: Column.self)
            }
        }
    }

    /// The element at `row` of the column at `column`.
    @inlinable
    public subscript(column: Int, row: Int) -> Column.Scalar {
        get {
            Self.check(row, "row", in: "subscript(_:_:)")
            return self[column][row]
        }
        set {
            Self.check(row, "row", in: "subscript(_:_:)")
            self[column][row] = newValue
        }
    }

    /// The matrix with its rows and columns swapped.
    @inlinable
    public var transpose: Self {
        var result = Self()
        for column in 0..<Self.order {
            for row in 0..<Self.order {
                result[row, column] = self[column, row]
            }
        }
        return result
    }

    /// Applies `transform` to each pair of columns of `lhs` and `rhs`.
    @inlinable
    static func columnwise(_ lhs: Self, _ rhs: Self, _ transform: (Column, Column) -> Column) -> Self {
        var result = Self()
        for column in 0..<order {
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
    public static func * (scalar: Column.Scalar, matrix: Self) -> Self {
        columnwise(matrix, matrix) { column, _ in column * scalar }
    }

    /// The matrix with every element multiplied by `scalar`.
    @inlinable
    public static func * (matrix: Self, scalar: Column.Scalar) -> Self { scalar * matrix }

    /// The matrix product `matrix` × `vector`, `vector` taken as a column.
    @inlinable
    public static func * (matrix: Self, vector: Column) -> Column {
        var result = Column()
        for column in 0..<order {
            result += matrix[column] * vector[column]
        }
        return result
    }

    /// The matrix product `vector` × `matrix`, `vector` taken as a row.
    @inlinable
    public static func * (vector: Column, matrix: Self) -> Column {
        var result = Column()
        for column in 0..<order {
            result[column] = (vector * matrix[column]).sum()
        }
        return result
    }

    /// The matrix product `lhs` × `rhs`.
    @inlinable
    public static func * (lhs: Self, rhs: Self) -> Self {
        var result = Self()
        for column in 0..<order {
            result[column] = lhs * rhs[column]
        }
        return result
    }

    /// Adds `rhs` to `lhs`.
    @inlinable
    public static func += (lhs: inout Self, rhs: Self) { lhs = lhs + rhs }

    /// Subtracts `rhs` from `lhs`.
    @inlinable
    public static func -= (lhs: inout Self, rhs: Self) { lhs = lhs - rhs }

    /// Multiplies `lhs` by `rhs` (`lhs` × `rhs`).
    @inlinable
    public static func *= (lhs: inout Self, rhs: Self) { lhs = lhs * rhs }

    /// Multiplies every element of `lhs` by `rhs`.
    @inlinable
    public static func *= (lhs: inout Self, rhs: Column.Scalar) { lhs = lhs * rhs }

    /// Whether every element of `lhs` equals the one at the same place of `rhs`.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        (0..<order).allSatisfy { lhs[$0] == rhs[$0] }
    }

    /// Whether some element of `lhs` differs from the one at the same place of `rhs`.
    @inlinable
    public static func != (lhs: Self, rhs: Self) -> Bool { !(lhs == rhs) }
}
