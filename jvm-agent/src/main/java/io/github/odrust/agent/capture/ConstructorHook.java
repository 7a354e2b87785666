package io.github.odrust.agent.capture;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Makes every constructor of the diagnosed test's class call {@link Diagnosis#constructing} as its
 * very first instructions, before the superclass constructor, field initializers and rules: the
 * {@code instance} point of docs/diagnose.md. Code before {@code super(...)} that does not touch
 * {@code this} is legal bytecode; only straight-line code is inserted at offset 0, so the stack
 * map frames stay valid.
 */
final class ConstructorHook implements ClassFileTransformer {
    private static final String DIAGNOSIS = "io/github/odrust/agent/capture/Diagnosis";

    /** The internal name of the test's class ({@code com/acme/VTest}). */
    private final String internalName;

    ConstructorHook(String internalName) {
        this.internalName = internalName;
    }

    @Override
    public byte[] transform(
            ClassLoader loader, String className, Class<?> redefined, ProtectionDomain pd, byte[] bytes) {
        if (!internalName.equals(className) || redefined != null || bytes == null) {
            return null;
        }
        try {
            return hooked(bytes, className.replace('/', '.'));
        } catch (Throwable t) {
            System.err.println("odrust-agent: cannot hook the constructors of " + className
                    + " (the diagnose experiment acts at the test's start instead): " + t);
            return null;
        }
    }

    /** The class file {@code bytes} with the hook at the start of each constructor. */
    static byte[] hooked(byte[] bytes, String dottedName) {
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        reader.accept(
                new ClassVisitor(Opcodes.ASM9, writer) {
                    @Override
                    public MethodVisitor visitMethod(
                            int access, String name, String descriptor, String signature, String[] exceptions) {
                        MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
                        if (!name.equals("<init>") || mv == null) {
                            return mv;
                        }
                        return new MethodVisitor(Opcodes.ASM9, mv) {
                            @Override
                            public void visitCode() {
                                super.visitCode();
                                super.visitLdcInsn(dottedName);
                                super.visitMethodInsn(
                                        Opcodes.INVOKESTATIC,
                                        DIAGNOSIS,
                                        "constructing",
                                        "(Ljava/lang/String;)V",
                                        false);
                            }
                        };
                    }
                },
                0);
        return writer.toByteArray();
    }
}
