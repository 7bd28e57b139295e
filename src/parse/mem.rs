//! Large buffers of the parser: the chart's arenas and the output tree take
//! about 200 bytes per input byte, and their first touch (page faults that
//! clear fresh pages) is a large share of a parse. On Linux, buffers of
//! several megabytes are marked for transparent huge pages, which cuts the
//! number of faults by 512.

/// Below this many bytes of capacity, the advice is not worth a syscall.
const HUGE_MIN: usize = 4 << 20;
const HUGE_PAGE: usize = 2 << 20;

/// Asks the kernel to back `v`'s spare capacity with huge pages. Purely a
/// performance hint: contents and behaviour are unchanged, and a refusal is
/// ignored.
pub(crate) fn advise_huge<T>(v: &mut Vec<T>) {
    let bytes = v.capacity() * std::mem::size_of::<T>();
    if bytes < HUGE_MIN {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        let start = v.as_mut_ptr() as usize;
        let lo = start.next_multiple_of(HUGE_PAGE);
        let hi = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
        if hi > lo {
            // SAFETY: `lo..hi` lies inside `v`'s allocation (rounded inwards to
            // whole huge pages); MADV_HUGEPAGE only changes how the kernel backs
            // those pages, never their contents or validity.
            unsafe {
                libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_HUGEPAGE);
            }
        }
    }
}
