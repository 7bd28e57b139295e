//! Faulting in the parser's large buffers in bulk.
//!
//! A parse writes about 180 bytes of fresh memory per input byte (the
//! output tree, and the chart when a [`super::Parser`] has none to reuse).
//! Touching it page by page costs one page fault per 4 KiB, which on Linux
//! was a large share of a parse; [`Prefault`] instead asks the kernel to
//! populate the next few megabytes of a growing buffer in one call
//! (`MADV_POPULATE_WRITE`). Contents and behaviour are unchanged; where the
//! call is unsupported it does nothing.

/// Populates a growing `Vec`'s spare capacity ahead of its length, `CHUNK`
/// bytes at a time.
pub(crate) struct Prefault {
    /// Elements below this index are (asked to be) populated.
    upto: usize,
}

/// Bytes populated per call.
const CHUNK: usize = 2 << 20;
const PAGE: usize = 4096;
/// Smaller spans are left to ordinary faults: the syscall would cost more
/// than it saves on the small parses reducers run by the thousand.
const MIN_SPAN: usize = 256 << 10;

impl Prefault {
    pub(crate) fn new() -> Prefault {
        Prefault { upto: 0 }
    }

    /// Call before pushing onto `v`: when its length reaches the populated
    /// mark, populates the next chunk of its capacity.
    #[inline]
    pub(crate) fn before_push<T>(&mut self, v: &mut Vec<T>) {
        if v.len() >= self.upto {
            self.populate(v);
        }
    }

    #[cold]
    fn populate<T>(&mut self, v: &mut Vec<T>) {
        let size = std::mem::size_of::<T>().max(1);
        let end = (v.len() + CHUNK / size).min(v.capacity());
        // Past the capacity the Vec reallocates: start afresh.
        self.upto = if end > v.len() { end } else { usize::MAX };
        #[cfg(target_os = "linux")]
        {
            let base = v.as_mut_ptr() as usize;
            let lo = (base + v.len() * size) / PAGE * PAGE;
            let hi = (base + end * size) / PAGE * PAGE;
            if hi >= lo + MIN_SPAN {
                // SAFETY: `lo..hi` lies within `v`'s allocation (its first page
                // may hold elements already written, which populating leaves
                // as they are); MADV_POPULATE_WRITE only faults pages in, never
                // changing contents. Failure (old kernels) is harmless.
                unsafe {
                    libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_POPULATE_WRITE);
                }
            }
        }
    }
}
