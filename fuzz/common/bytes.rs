//! A reader of fuzzer bytes: every call returns a value, reading zeros past the end, so any
//! byte string decodes to some program.

/// Cursor over the fuzzer's bytes.
pub struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    /// Reads `data` from the start.
    pub fn new(data: &'a [u8]) -> Self {
        Self { data, at: 0 }
    }

    /// True once every byte was read.
    pub fn done(&self) -> bool {
        self.at >= self.data.len()
    }

    /// The next byte (0 past the end).
    pub fn u8(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    /// The next little-endian u32.
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }

    /// An index in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.u8() as usize % n.max(1)
    }

    /// A float: mostly ordinary values in [-2, 2), sometimes special ones (NaN, ±∞, 0, −0,
    /// huge, tiny, subnormal).
    pub fn f64(&mut self) -> f64 {
        let tag = self.u8();
        match tag {
            0 => f64::NAN,
            1 => f64::INFINITY,
            2 => f64::NEG_INFINITY,
            3 => 0.0,
            4 => -0.0,
            5 => 1e300,
            6 => -1e300,
            7 => 1e-300,
            8 => f64::MIN_POSITIVE / 4.0,
            9 => 1e10,
            _ => (self.u8() as f64 - 128.0) / 64.0 + (tag as f64 - 128.0) / 8192.0,
        }
    }

    /// A float that is usually finite and small: `base` plus a little noise, special now and then.
    pub fn near(&mut self, base: f64) -> f64 {
        let tag = self.u8();
        if tag < 8 {
            self.f64()
        } else {
            base + (tag as f64 - 132.0) / 4096.0
        }
    }
}
