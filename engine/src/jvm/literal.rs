//! Java source for constant values: the literal of a class-file constant for a parameter or
//! field of a given descriptor, a type's default value, string and character literals with
//! their escapes, float and double literals.

use super::classfile::Constant;
use super::hierarchy::Hierarchy;

/// Java source for a constant of type `descriptor`; `null` only for a `String` (cast) unless
/// `assignment`.
pub fn literal(
    constant: &Constant,
    descriptor: &str,
    assignment: bool,
    hierarchy: &Hierarchy<'_>,
) -> Option<String> {
    Some(match (descriptor, constant) {
        ("Z", Constant::Int(0)) => "false".to_string(),
        ("Z", Constant::Int(1)) => "true".to_string(),
        ("B", Constant::Int(v)) if i8::try_from(*v).is_ok() => format!("(byte) {v}"),
        ("S", Constant::Int(v)) if i16::try_from(*v).is_ok() => format!("(short) {v}"),
        ("C", Constant::Int(v)) => java_char(u16::try_from(*v).ok()?),
        ("I", Constant::Int(v)) => v.to_string(),
        ("J", Constant::Long(v)) => format!("{v}L"),
        ("F", Constant::Float(v)) => java_float(*v),
        ("D", Constant::Double(v)) => java_double(*v),
        ("Ljava/lang/String;", Constant::String(s)) => java_string(s),
        ("Ljava/lang/Class;", Constant::Class(c)) => {
            format!("{}.class", hierarchy.canonical(c))
        }
        ("Ljava/lang/String;", Constant::Null) if !assignment => {
            "(java.lang.String) null".to_string()
        }
        (d, Constant::Null) if assignment && (d.starts_with('L') || d.starts_with('[')) => {
            "null".to_string()
        }
        _ => return None,
    })
}

/// The default value of a field of `descriptor`, as Java source.
pub fn default_value(descriptor: &str) -> Option<&'static str> {
    Some(match descriptor.as_bytes().first()? {
        b'Z' => "false",
        b'B' | b'S' | b'I' => "0",
        b'C' => "'\\0'",
        b'J' => "0L",
        b'F' => "0.0f",
        b'D' => "0.0",
        b'L' | b'[' => "null",
        _ => return None,
    })
}

/// A Java string literal. Control characters become octal escapes, never `\u000a` (a unicode
/// escape of a line terminator ends the line before the lexer sees the literal).
pub fn java_string(s: &str) -> String {
    let mut out = String::from("\"");
    for unit in s.encode_utf16() {
        push_escaped(&mut out, unit, '"');
    }
    out.push('"');
    out
}

/// A Java char literal of a UTF-16 unit, escaped as [`java_string`] escapes.
pub fn java_char(unit: u16) -> String {
    let mut out = String::from("'");
    push_escaped(&mut out, unit, '\'');
    out.push('\'');
    out
}

fn push_escaped(out: &mut String, unit: u16, quote: char) {
    match unit {
        0x5c => out.push_str("\\\\"),
        0x0a => out.push_str("\\n"),
        0x0d => out.push_str("\\r"),
        0x09 => out.push_str("\\t"),
        0x08 => out.push_str("\\b"),
        0x0c => out.push_str("\\f"),
        u if u == quote as u16 => {
            out.push('\\');
            out.push(quote);
        }
        0x20..=0x7e => out.push(char::from(unit as u8)),
        0x00..=0x1f | 0x7f => out.push_str(&format!("\\{unit:03o}")),
        _ => out.push_str(&format!("\\u{unit:04x}")),
    }
}

/// A Java float literal (`1.5f`, `Float.NaN`, `Float.POSITIVE_INFINITY`).
pub fn java_float(v: f32) -> String {
    if v.is_nan() {
        "Float.NaN".to_string()
    } else if v.is_infinite() {
        if v > 0.0 {
            "Float.POSITIVE_INFINITY"
        } else {
            "Float.NEGATIVE_INFINITY"
        }
        .to_string()
    } else {
        format!("{v:?}f")
    }
}

/// A Java double literal (`1.5d`, `Double.NaN`, `Double.POSITIVE_INFINITY`).
pub fn java_double(v: f64) -> String {
    if v.is_nan() {
        "Double.NaN".to_string()
    } else if v.is_infinite() {
        if v > 0.0 {
            "Double.POSITIVE_INFINITY"
        } else {
            "Double.NEGATIVE_INFINITY"
        }
        .to_string()
    } else {
        format!("{v:?}d")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_are_java_source() {
        assert_eq!(java_string("a\"b\\c\n\u{1}é"), r#""a\"b\\c\n\001\u00e9""#);
        assert_eq!(java_char(u16::from(b'\'')), r"'\''");
        assert_eq!(java_char(10), r"'\n'");
        assert_eq!(java_float(1.5), "1.5f");
        assert_eq!(java_float(f32::NAN), "Float.NaN");
        assert_eq!(java_double(-2.0), "-2.0d");
    }
}
