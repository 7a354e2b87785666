//! The byte reader under the class-file parser: big-endian reads that fail as [`Malformed`]
//! (what was being read, and the byte offset) instead of panicking.

/// Why a file is malformed, and where.
pub(super) struct Malformed(pub(super) String, pub(super) usize);

pub(super) type Parse<T> = Result<T, Malformed>;

/// A cursor over a class file's bytes; every read names what it reads for the error.
pub(super) struct Reader<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) pos: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn fail<T>(&self, what: impl Into<String>) -> Parse<T> {
        Err(Malformed(what.into(), self.pos))
    }

    pub(super) fn take(&mut self, n: usize, what: &str) -> Parse<&'a [u8]> {
        match self.pos.checked_add(n) {
            Some(end) if end <= self.bytes.len() => {
                let slice = &self.bytes[self.pos..end];
                self.pos = end;
                Ok(slice)
            }
            _ => self.fail(format!(
                "truncated: {what} needs {n} bytes, {} left",
                self.bytes.len().saturating_sub(self.pos)
            )),
        }
    }

    pub(super) fn u1(&mut self, what: &str) -> Parse<u8> {
        Ok(self.take(1, what)?[0])
    }

    pub(super) fn u2(&mut self, what: &str) -> Parse<u16> {
        let b = self.take(2, what)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }

    pub(super) fn u4(&mut self, what: &str) -> Parse<u32> {
        let b = self.take(4, what)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
}
