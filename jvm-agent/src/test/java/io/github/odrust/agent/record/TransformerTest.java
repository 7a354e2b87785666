package io.github.odrust.agent.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.odrust.samples.record.RecFlow;
import io.github.odrust.samples.record.RecHolder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** The bytecode rewriting in-process (recording itself is tested end to end in RecordIT). */
class TransformerTest {
    static byte[] bytes(Class<?> c) throws IOException {
        try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            for (int n; (n = in.read(buf)) > 0; ) {
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        }
    }

    /** Defines one class from the given bytes, everything else from the parent (so the same Recorder). */
    static final class OneClassLoader extends ClassLoader {
        private final String name;
        private final byte[] bytes;

        OneClassLoader(String name, byte[] bytes) {
            super(TransformerTest.class.getClassLoader());
            this.name = name;
            this.bytes = bytes;
        }

        @Override
        protected Class<?> loadClass(String n, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(n)) {
                if (n.equals(name)) {
                    Class<?> c = findLoadedClass(n);
                    return c != null ? c : defineClass(n, bytes, 0, bytes.length);
                }
                return super.loadClass(n, resolve);
            }
        }
    }

    /** "owner.name:method" for each Recorder call, in order, per the instrumented bytes. */
    static List<String> recorderCalls(byte[] b) {
        List<String> calls = new ArrayList<>();
        new ClassReader(b)
                .accept(
                        new ClassVisitor(Opcodes.ASM9) {
                            @Override
                            public MethodVisitor visitMethod(
                                    int access, String name, String desc, String sig, String[] ex) {
                                return new MethodVisitor(Opcodes.ASM9) {
                                    @Override
                                    public void visitMethodInsn(int op, String owner, String n, String d, boolean itf) {
                                        if (owner.equals(Transformer.RECORDER)) {
                                            calls.add(name + ":" + n
                                                    + (d.startsWith("(Ljava/lang/Object;") ? "(value)" : ""));
                                        }
                                    }
                                };
                            }
                        },
                        0);
        return calls;
    }

    @Test
    void instrumentedCodeVerifiesAndBehavesTheSame() throws Exception {
        byte[] b = Transformer.instrument(bytes(RecFlow.class), getClass().getClassLoader());
        assertNotNull(b);
        List<String> calls = recorderCalls(b);
        assertTrue(calls.contains("run:read") && calls.contains("run:write"), calls.toString());
        assertTrue(calls.contains("lambda$run$0:read"), calls.toString());
        // `cells` (long[]): the value read goes to the Recorder, which fingerprints it at the first read of a test
        assertEquals(3, calls.stream().filter("run:read(value)"::equals).count(), calls.toString());
        // `total` (int), `CONST` (int), `label` (String) and System.getProperty: the plain call, before the read
        assertEquals(9, calls.stream().filter("run:read"::equals).count(), calls.toString());
        Class<?> c = new OneClassLoader(RecFlow.class.getName(), b).loadClass(RecFlow.class.getName());
        Method run = c.getMethod("run", int.class);
        assertEquals(RecFlow.run(20), run.invoke(null, 20)); // recording is off in-process: calls are no-ops
    }

    @Test
    void clinitInitialisingItsOwnClassAndJdkFieldsAreNotInstrumented() throws Exception {
        // RecHolder's <clinit> only writes and reads its own statics
        assertNull(Transformer.instrument(bytes(RecHolder.class), getClass().getClassLoader()));
        assertNull(Transformer.instrument(
                bytes(io.github.odrust.samples.record.RecInit.class), getClass().getClassLoader()));
    }

    /** A Java 1.4 class (no stack map frames) with a JSR/RET subroutine around static accesses. */
    static byte[] oldClass() {
        ClassWriter cw = new ClassWriter(0);
        cw.visit(Opcodes.V1_4, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, "rec/Old", null, "java/lang/Object", null);
        cw.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "n", "I", null, null)
                .visitEnd();
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "bump", "()I", null, null);
        mv.visitCode();
        Label sub = new Label();
        mv.visitJumpInsn(Opcodes.JSR, sub);
        mv.visitFieldInsn(Opcodes.GETSTATIC, "rec/Old", "n", "I");
        mv.visitInsn(Opcodes.IRETURN);
        mv.visitLabel(sub);
        mv.visitVarInsn(Opcodes.ASTORE, 0);
        mv.visitFieldInsn(Opcodes.GETSTATIC, "rec/Old", "n", "I");
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitInsn(Opcodes.IADD);
        mv.visitFieldInsn(Opcodes.PUTSTATIC, "rec/Old", "n", "I");
        mv.visitVarInsn(Opcodes.RET, 0);
        mv.visitMaxs(2, 1);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    @Test
    void oldClassFilesWithSubroutinesStillWork() throws Exception {
        byte[] b = Transformer.instrument(oldClass(), getClass().getClassLoader());
        assertNotNull(b);
        assertEquals(3, recorderCalls(b).size());
        Class<?> c = new OneClassLoader("rec.Old", b).loadClass("rec.Old");
        Method bump = c.getMethod("bump");
        assertEquals(1, bump.invoke(null));
        assertEquals(2, bump.invoke(null));
    }

    @Test
    void fieldsAreClassifiedLazilyByReflection() {
        ClassLoader l = getClass().getClassLoader();
        String h = "io/github/odrust/samples/record/RecHolder";
        assertEquals(Fields.PLAIN, Fields.classify(Fields.entry(Fields.register(h, "COUNT", l))));
        assertEquals(Fields.CONSTANT, Fields.classify(Fields.entry(Fields.register(h, "CONST", l))));
        assertEquals(Fields.CONSTANT, Fields.classify(Fields.entry(Fields.register(h, "NAME", l))));
        assertEquals(Fields.CONSTANT, Fields.classify(Fields.entry(Fields.register(h, "UNIT", l))));
        assertEquals(Fields.PLAIN, Fields.classify(Fields.entry(Fields.register(h, "label", l))));
        assertEquals(Fields.MUTABLE, Fields.classify(Fields.entry(Fields.register(h, "REGISTRY", l))));
        assertEquals(Fields.MUTABLE, Fields.classify(Fields.entry(Fields.register(h, "noSuchField", l))));
        assertEquals(
                Fields.CONSTANT,
                Fields.classify(Fields.entry(Fields.register("io/github/odrust/samples/record/RecColor", "GREEN", l))));
        assertEquals(
                Fields.MUTABLE,
                Fields.classify(Fields.entry(Fields.register("io/github/odrust/samples/record/RecFlow", "cells", l))));
        Fields.Entry inherited = Fields.entry(Fields.register("io/github/odrust/samples/record/RecSub", "shared", l));
        assertEquals(Fields.PLAIN, Fields.classify(inherited));
        assertEquals("io.github.odrust.samples.record.RecBase#shared", inherited.display);
        Recorder.Accesses a = Fields.describe(
                new int[] {
                    Fields.register(h, "REGISTRY", l), Fields.register(h, "CONST", l), Fields.register(h, "COUNT", l)
                },
                new int[] {Fields.SYSTEM_PROPERTIES},
                null);
        assertEquals(
                java.util.Arrays.asList(h.replace('/', '.') + "#COUNT", h.replace('/', '.') + "#REGISTRY"), a.reads);
        assertEquals(
                java.util.Arrays.asList(h.replace('/', '.') + "#REGISTRY", "java.lang.System#properties"), a.writes);
    }
}
