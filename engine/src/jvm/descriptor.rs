//! Descriptors and binary names as the class file writes them (JVMS 4.2, 4.3): the class of a
//! field descriptor, the Java name of a primitive, the parts of a method descriptor, a class's
//! package.

/// `com/acme/Outer$Inner` → `com.acme.Outer$Inner`.
pub fn dotted(internal: &str) -> String {
    internal.replace('/', ".")
}

/// `Lcom/acme/X;` → `com.acme.X`; none for primitives and arrays.
pub fn descriptor_class(descriptor: &str) -> Option<String> {
    descriptor
        .strip_prefix('L')
        .and_then(|d| d.strip_suffix(';'))
        .map(|d| d.replace('/', "."))
}

/// The Java name of a primitive descriptor (`I` → `int`, `V` → `void`).
pub fn primitive_name(code: u8) -> Option<&'static str> {
    Some(match code {
        b'Z' => "boolean",
        b'B' => "byte",
        b'C' => "char",
        b'S' => "short",
        b'I' => "int",
        b'J' => "long",
        b'F' => "float",
        b'D' => "double",
        b'V' => "void",
        _ => return None,
    })
}

/// The parameter descriptors and the return descriptor of a method descriptor.
pub fn method_descriptor(descriptor: &str) -> Option<(Vec<String>, String)> {
    let rest = descriptor.strip_prefix('(')?;
    let (params, ret) = rest.split_once(')')?;
    let mut out = Vec::new();
    let bytes = params.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        while bytes.get(i) == Some(&b'[') {
            i += 1;
        }
        match bytes.get(i)? {
            b'L' => i += params[i..].find(';')? + 1,
            c if primitive_name(*c).is_some() && *c != b'V' => i += 1,
            _ => return None,
        }
        out.push(params[start..i].to_string());
    }
    Some((out, ret.to_string()))
}

/// `com.acme.Outer$Inner` → `com.acme`; the empty string for the default package.
pub fn package_of(class: &str) -> &str {
    class.rfind('.').map_or("", |i| &class[..i])
}

/// Whether a binary name looks like an anonymous class's (`Outer$1`).
pub fn is_anonymous_name(class: &str) -> bool {
    class
        .rsplit('$')
        .next()
        .is_some_and(|last| class.contains('$') && last.starts_with(|c: char| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn method_descriptors_split_into_parameters_and_return() {
        assert_eq!(
            method_descriptor("(I[JLjava/lang/String;[[Lx/Y;)V"),
            Some((
                vec![
                    "I".to_string(),
                    "[J".to_string(),
                    "Ljava/lang/String;".to_string(),
                    "[[Lx/Y;".to_string()
                ],
                "V".to_string()
            ))
        );
        assert_eq!(method_descriptor("(L)V"), None);
    }
}
