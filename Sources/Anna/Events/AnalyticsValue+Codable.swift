import Foundation

/// `AnalyticsValue` encodes as a one-key object naming its case, `{"int": 3}`, so
/// that every value, including an `int` against a `double`, decodes to exactly
/// what was encoded.
extension AnalyticsValue: Codable {
    private enum CodingKeys: String, CodingKey {
        case string, int, double, bool, date, url, uuid, array, object
    }

    /// Decodes a value written by ``encode(to:)``.
    /// - Throws: `DecodingError.dataCorrupted` when the object does not hold exactly one known case.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: container.codingPath,
                debugDescription: "An AnalyticsValue is an object with exactly one of the keys string, int, double, bool, date, url, uuid, array, object."
            ))
        }
        switch key {
        case .string: self = .string(try container.decode(String.self, forKey: key))
        case .int: self = .int(try container.decode(Int.self, forKey: key))
        case .double: self = .double(try container.decode(Double.self, forKey: key))
        case .bool: self = .bool(try container.decode(Bool.self, forKey: key))
        case .date: self = .date(try container.decode(Date.self, forKey: key))
        case .url: self = .url(try container.decode(URL.self, forKey: key))
        case .uuid: self = .uuid(try container.decode(UUID.self, forKey: key))
        case .array: self = .array(try container.decode([AnalyticsValue].self, forKey: key))
        case .object: self = .object(try container.decode([String: AnalyticsValue].self, forKey: key))
        }
    }

    /// Encodes the value as a one-key object naming its case.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .string(let value): try container.encode(value, forKey: .string)
        case .int(let value): try container.encode(value, forKey: .int)
        case .double(let value): try container.encode(value, forKey: .double)
        case .bool(let value): try container.encode(value, forKey: .bool)
        case .date(let value): try container.encode(value, forKey: .date)
        case .url(let value): try container.encode(value, forKey: .url)
        case .uuid(let value): try container.encode(value, forKey: .uuid)
        case .array(let value): try container.encode(value, forKey: .array)
        case .object(let value): try container.encode(value, forKey: .object)
        }
    }
}
