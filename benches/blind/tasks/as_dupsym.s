# strutil.s -- hand-written string helpers for the x86-64 SysV ABI.
# Assemble with:  as --64 -o strutil.o strutil.s
#
# Bug: after adding the ZERO_FILL macro, `as` rejects the file.

	.file	"strutil.s"
	.text

# ZERO_FILL reg, count: zero `count` bytes starting at (reg).
	.macro	ZERO_FILL reg, count
	movq	\count, %rcx
	xorl	%eax, %eax
.Lzero_loop:
	testq	%rcx, %rcx
	je	1f
	movb	%al, (\reg)
	incq	\reg
	decq	%rcx
	jmp	.Lzero_loop
1:
	.endm

# size_t str_len(const char *s)
	.globl	str_len
	.type	str_len, @function
	.p2align 4
str_len:
	movq	%rdi, %rax
.Llen_loop:
	cmpb	$0, (%rax)
	je	.Llen_done
	incq	%rax
	jmp	.Llen_loop
.Llen_done:
	subq	%rdi, %rax
	ret
	.size	str_len, .-str_len

# char *str_copy(char *dst, const char *src)
	.globl	str_copy
	.type	str_copy, @function
	.p2align 4
str_copy:
	movq	%rdi, %rax
.Lcopy_loop:
	movb	(%rsi), %cl
	movb	%cl, (%rdi)
	incq	%rsi
	incq	%rdi
	testb	%cl, %cl
	jne	.Lcopy_loop
	ret
	.size	str_copy, .-str_copy

# int str_cmp(const char *a, const char *b)
	.globl	str_cmp
	.type	str_cmp, @function
	.p2align 4
str_cmp:
.Lcmp_loop:
	movzbl	(%rdi), %eax
	movzbl	(%rsi), %edx
	subl	%edx, %eax
	jne	.Lcmp_done
	testl	%edx, %edx
	je	.Lcmp_done
	incq	%rdi
	incq	%rsi
	jmp	.Lcmp_loop
.Lcmp_done:
	ret
	.size	str_cmp, .-str_cmp

# void buf_clear(char *buf, size_t n)
	.globl	buf_clear
	.type	buf_clear, @function
	.p2align 4
buf_clear:
	pushq	%rbx
	movq	%rdi, %rbx
	ZERO_FILL %rbx, %rsi
	popq	%rbx
	ret
	.size	buf_clear, .-buf_clear

# void rec_reset(struct rec *r): zero the 16-byte key and the 48-byte payload
	.globl	rec_reset
	.type	rec_reset, @function
	.p2align 4
rec_reset:
	pushq	%rbx
	movq	%rdi, %rbx
	movl	$0, 64(%rdi)		# r->len = 0
	ZERO_FILL %rbx, $16
	leaq	16(%rdi), %rbx
	ZERO_FILL %rbx, $48
	popq	%rbx
	ret
	.size	rec_reset, .-rec_reset

# char *str_chr(const char *s, int c)
	.globl	str_chr
	.type	str_chr, @function
	.p2align 4
str_chr:
	movq	%rdi, %rax
.Lchr_loop:
	movb	(%rax), %cl
	cmpb	%sil, %cl
	je	.Lchr_found
	testb	%cl, %cl
	je	.Lchr_none
	incq	%rax
	jmp	.Lchr_loop
.Lchr_none:
	xorl	%eax, %eax
.Lchr_found:
	ret
	.size	str_chr, .-str_chr

	.section	.rodata
	.p2align 3
.Lversion:
	.string	"strutil 0.3"
	.globl	strutil_version
strutil_version:
	.quad	.Lversion

	.section	.note.GNU-stack,"",@progbits
