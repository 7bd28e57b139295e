// Checksum and buffer helpers for the boot loader (AArch64, LP64).
// Assembled with llvm-mc / clang -c; all routines follow AAPCS64.

	.macro FUNC_START name
	.text
	.globl \name
	.type \name, %function
	.p2align 2
\name:
	.endm

	.macro FUNC_END name
	.size \name, . - \name
	.endm

	.macro SAVE_PAIR r1, r2, off
	stp \r1, \r2, [sp, #\off]
	.endm

	.macro RESTORE_PAIR r1, r2, off
	ldp \r1, \r2, [sp, #\off]
	.endm

	.equ CRC_POLY, 0xedb88320
	.equ CHUNK, 64

// uint32_t crc32_update(uint32_t crc, const uint8_t *p, size_t n)
FUNC_START crc32_update
	mvn w0, w0
	cbz x2, 2f
	mov w4, #(CRC_POLY & 0xffff)
	movk w4, #(CRC_POLY >> 16), lsl #16
1:	ldrb w3, [x1], #1
	eor w0, w0, w3
	mov w5, #8
3:	and w6, w0, #1
	lsr w0, w0, #1
	neg w6, w6
	and w6, w6, w4
	eor w0, w0, w6
	subs w5, w5, #1
	b.ne 3b
	subs x2, x2, #1
	b.ne 1b
2:	mvn w0, w0
	ret
FUNC_END crc32_update

// void fill64(void *dst, uint64_t pattern, size_t n)  -- n multiple of 64
FUNC_START fill64
	cbz x2, 2f
1:	stp x1, x1, [x0]
	stp x1, x1, [x0, #16]
	stp x1, x1, [x0, #32]
	stp x1, x1, [x0, #48]
	add x0, x0, #CHUNK
	subs x2, x2, #CHUNK
	b.hi 1b
2:	ret
FUNC_END fill64

// uint32_t checksum_blocks(const uint8_t **blocks, const size_t *lens, size_t count)
FUNC_START checksum_blocks
	sub sp, sp, #64
	SAVE_PAIR x29, x30, 0
	mov x29, sp
	SAVE_PAIR x19, x20, 16
	SAVE_PAIR x21, x22, 36
	SAVE_PAIR x23, x24, 48
	mov x19, x0
	mov x20, x1
	mov x21, x2
	mov w22, #0
	mov x23, #0
1:	cmp x23, x21
	b.hs 2f
	mov w0, w22
	ldr x1, [x19, x23, lsl #3]
	ldr x2, [x20, x23, lsl #3]
	bl crc32_update
	mov w22, w0
	add x23, x23, #1
	b 1b
2:	mov w0, w22
	RESTORE_PAIR x23, x24, 48
	RESTORE_PAIR x21, x22, 32
	RESTORE_PAIR x19, x20, 16
	RESTORE_PAIR x29, x30, 0
	add sp, sp, #64
	ret
FUNC_END checksum_blocks

// size_t count_zero_words(const uint64_t *p, size_t n)
FUNC_START count_zero_words
	mov x2, #0
	cbz x1, 2f
1:	ldr x3, [x0], #8
	cmp x3, #0
	cinc x2, x2, eq
	subs x1, x1, #1
	b.ne 1b
2:	mov x0, x2
	ret
FUNC_END count_zero_words
