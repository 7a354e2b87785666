package io.github.odrust.agent.shuffle;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Retransforms the JDK methods whose results {@code odrust:detect-id} shuffles (docs/id-tests.md):
 * body-only changes (no new members, as retransformation requires) that hand each result to
 * {@code shuffle.rt.Shuffler} on the boot class path before it is returned, or, for
 * {@code forEach}, let the runtime run the action over a permutation and return at once.
 */
final class ShuffleTransformer implements ClassFileTransformer {
    static final String RT = "io/github/odrust/agent/shuffle/rt/Shuffler";

    /** How a hook passes the collection and the allocation source. */
    enum Arg {
        THIS,
        NULL,
        OUTER,
        SET_MAP
    }

    enum Kind {
        ITERATOR,
        SPLITERATOR,
        ARRAY,
        FOR_EACH,
        ALLOCATED
    }

    static final class Hook {
        final String method;
        final String desc;
        final Kind kind;
        final Arg collection;
        final Arg source;
        final String api;

        Hook(String method, String desc, Kind kind, Arg collection, Arg source, String api) {
            this.method = method;
            this.desc = desc;
            this.kind = kind;
            this.collection = collection;
            this.source = source;
            this.api = api;
        }
    }

    /** Internal class name → its hooks. */
    static final Map<String, List<Hook>> HOOKS = hooks();

    private static Map<String, List<Hook>> hooks() {
        Map<String, List<Hook>> m = new LinkedHashMap<>();
        for (String view : Arrays.asList("KeySet", "Values", "EntrySet")) {
            String owner = "java/util/HashMap$" + view;
            String api = "HashMap$" + view + ".";
            List<Hook> h = new ArrayList<>();
            h.add(new Hook("iterator", "()Ljava/util/Iterator;", Kind.ITERATOR, Arg.THIS, Arg.OUTER, api + "iterator"));
            h.add(new Hook(
                    "spliterator",
                    "()Ljava/util/Spliterator;",
                    Kind.SPLITERATOR,
                    Arg.THIS,
                    Arg.OUTER,
                    api + "spliterator"));
            h.add(new Hook("toArray", "()[Ljava/lang/Object;", Kind.ARRAY, Arg.THIS, Arg.OUTER, api + "toArray"));
            h.add(new Hook(
                    "toArray",
                    "([Ljava/lang/Object;)[Ljava/lang/Object;",
                    Kind.ARRAY,
                    Arg.THIS,
                    Arg.OUTER,
                    api + "toArray"));
            h.add(new Hook(
                    "forEach",
                    "(Ljava/util/function/Consumer;)V",
                    Kind.FOR_EACH,
                    Arg.THIS,
                    Arg.OUTER,
                    api + "forEach"));
            m.put(owner, h);
        }
        m.put(
                "java/util/HashMap",
                Arrays.asList(
                        new Hook(
                                "forEach",
                                "(Ljava/util/function/BiConsumer;)V",
                                Kind.FOR_EACH,
                                Arg.THIS,
                                Arg.THIS,
                                "HashMap.forEach"),
                        new Hook("<init>", null, Kind.ALLOCATED, Arg.THIS, Arg.THIS, null)));
        m.put(
                "java/util/HashSet",
                Arrays.asList(
                        new Hook(
                                "spliterator",
                                "()Ljava/util/Spliterator;",
                                Kind.SPLITERATOR,
                                Arg.THIS,
                                Arg.SET_MAP,
                                "HashSet.spliterator"),
                        new Hook(
                                "toArray",
                                "()[Ljava/lang/Object;",
                                Kind.ARRAY,
                                Arg.THIS,
                                Arg.SET_MAP,
                                "HashSet.toArray"),
                        new Hook(
                                "toArray",
                                "([Ljava/lang/Object;)[Ljava/lang/Object;",
                                Kind.ARRAY,
                                Arg.THIS,
                                Arg.SET_MAP,
                                "HashSet.toArray")));
        m.put(
                "java/util/PriorityQueue",
                Arrays.asList(
                        new Hook(
                                "iterator",
                                "()Ljava/util/Iterator;",
                                Kind.ITERATOR,
                                Arg.THIS,
                                Arg.NULL,
                                "PriorityQueue.iterator"),
                        new Hook(
                                "spliterator",
                                "()Ljava/util/Spliterator;",
                                Kind.SPLITERATOR,
                                Arg.THIS,
                                Arg.NULL,
                                "PriorityQueue.spliterator"),
                        new Hook(
                                "toArray",
                                "()[Ljava/lang/Object;",
                                Kind.ARRAY,
                                Arg.THIS,
                                Arg.NULL,
                                "PriorityQueue.toArray"),
                        new Hook(
                                "toArray",
                                "([Ljava/lang/Object;)[Ljava/lang/Object;",
                                Kind.ARRAY,
                                Arg.THIS,
                                Arg.NULL,
                                "PriorityQueue.toArray"),
                        new Hook(
                                "forEach",
                                "(Ljava/util/function/Consumer;)V",
                                Kind.FOR_EACH,
                                Arg.THIS,
                                Arg.NULL,
                                "PriorityQueue.forEach")));
        for (String view : Arrays.asList("KeySetView", "ValuesView", "EntrySetView")) {
            m.put(
                    "java/util/concurrent/ConcurrentHashMap$" + view,
                    Collections.singletonList(new Hook(
                            "iterator",
                            "()Ljava/util/Iterator;",
                            Kind.ITERATOR,
                            Arg.THIS,
                            Arg.NULL,
                            "ConcurrentHashMap$" + view + ".iterator")));
        }
        List<Hook> reflection = new ArrayList<>();
        for (String[] r : new String[][] {
            {"getDeclaredFields", "Field"},
            {"getFields", "Field"},
            {"getDeclaredMethods", "Method"},
            {"getMethods", "Method"},
            {"getDeclaredConstructors", "Constructor"},
            {"getConstructors", "Constructor"}
        }) {
            reflection.add(new Hook(
                    r[0], "()[Ljava/lang/reflect/" + r[1] + ";", Kind.ARRAY, Arg.NULL, Arg.NULL, "Class." + r[0]));
        }
        m.put("java/lang/Class", reflection);
        m.put(
                "java/io/File",
                Collections.singletonList(new Hook(
                        "normalizedList", "()[Ljava/lang/String;", Kind.ARRAY, Arg.NULL, Arg.NULL, "File.list")));
        return Collections.unmodifiableMap(m);
    }

    /** The classes rewritten by earlier JVMs, and where this one's are kept. */
    final ClassCache cache;

    ShuffleTransformer(ClassCache cache) {
        this.cache = cache;
    }

    /** Classes whose transformation failed, with why (reported by the agent). */
    final List<String> failures = Collections.synchronizedList(new ArrayList<String>());
    /** Classes transformed. */
    final List<String> transformed = Collections.synchronizedList(new ArrayList<String>());

    @Override
    public byte[] transform(
            ClassLoader loader, String className, Class<?> redefined, ProtectionDomain domain, byte[] bytes) {
        if (loader != null || className == null) {
            return null;
        }
        List<Hook> hooks = HOOKS.get(className);
        if (hooks == null) {
            return null;
        }
        try {
            byte[] out = cache.get(className, bytes);
            if (out == null) {
                out = rewrite(className, hooks, bytes);
                cache.put(className, bytes, out);
            }
            transformed.add(className);
            return out;
        } catch (Throwable t) {
            failures.add(className + ": " + t);
            return null;
        }
    }

    static byte[] rewrite(String owner, List<Hook> hooks, byte[] bytes) {
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        reader.accept(
                new ClassVisitor(Opcodes.ASM9, writer) {
                    @Override
                    public MethodVisitor visitMethod(
                            int access, String name, String desc, String signature, String[] exceptions) {
                        MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
                        for (Hook h : hooks) {
                            if (h.method.equals(name) && (h.desc == null || h.desc.equals(desc))) {
                                return new HookVisitor(mv, owner, h, Type.getReturnType(desc));
                            }
                        }
                        return mv;
                    }
                },
                0);
        return writer.toByteArray();
    }

    private static final class HookVisitor extends MethodVisitor {
        private final String owner;
        private final Hook hook;
        private final Type returns;

        HookVisitor(MethodVisitor mv, String owner, Hook hook, Type returns) {
            super(Opcodes.ASM9, mv);
            this.owner = owner;
            this.hook = hook;
            this.returns = returns;
        }

        @Override
        public void visitCode() {
            super.visitCode();
            if (hook.kind != Kind.FOR_EACH) {
                return;
            }
            push(hook.collection);
            super.visitVarInsn(Opcodes.ALOAD, 1);
            push(hook.source);
            super.visitLdcInsn(hook.api);
            super.visitMethodInsn(
                    Opcodes.INVOKESTATIC,
                    RT,
                    "forEach",
                    "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/String;)Z",
                    false);
            Label original = new Label();
            super.visitJumpInsn(Opcodes.IFEQ, original);
            super.visitInsn(Opcodes.RETURN);
            super.visitLabel(original);
            super.visitFrame(Opcodes.F_SAME, 0, null, 0, null);
            super.visitInsn(Opcodes.NOP);
        }

        @Override
        public void visitInsn(int opcode) {
            if (opcode == Opcodes.ARETURN) {
                switch (hook.kind) {
                    case ITERATOR:
                        push(hook.collection);
                        push(hook.source);
                        super.visitLdcInsn(hook.api);
                        super.visitMethodInsn(
                                Opcodes.INVOKESTATIC,
                                RT,
                                "iterator",
                                "(Ljava/util/Iterator;Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/String;)"
                                        + "Ljava/util/Iterator;",
                                false);
                        break;
                    case SPLITERATOR:
                        push(hook.collection);
                        push(hook.source);
                        super.visitLdcInsn(hook.api);
                        super.visitMethodInsn(
                                Opcodes.INVOKESTATIC,
                                RT,
                                "spliterator",
                                "(Ljava/util/Spliterator;Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/String;)"
                                        + "Ljava/util/Spliterator;",
                                false);
                        break;
                    case ARRAY:
                        push(hook.collection);
                        push(hook.source);
                        super.visitLdcInsn(hook.api);
                        super.visitMethodInsn(
                                Opcodes.INVOKESTATIC,
                                RT,
                                "array",
                                "([Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/String;)"
                                        + "[Ljava/lang/Object;",
                                false);
                        if (!returns.getDescriptor().equals("[Ljava/lang/Object;")) {
                            super.visitTypeInsn(Opcodes.CHECKCAST, returns.getDescriptor());
                        }
                        break;
                    default:
                        break;
                }
            } else if (opcode == Opcodes.RETURN && hook.kind == Kind.ALLOCATED) {
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, RT, "allocated", "(Ljava/lang/Object;)V", false);
            }
            super.visitInsn(opcode);
        }

        private void push(Arg a) {
            switch (a) {
                case THIS:
                    super.visitVarInsn(Opcodes.ALOAD, 0);
                    break;
                case OUTER:
                    super.visitVarInsn(Opcodes.ALOAD, 0);
                    super.visitFieldInsn(Opcodes.GETFIELD, owner, "this$0", "Ljava/util/HashMap;");
                    break;
                case SET_MAP:
                    super.visitVarInsn(Opcodes.ALOAD, 0);
                    super.visitFieldInsn(Opcodes.GETFIELD, "java/util/HashSet", "map", "Ljava/util/HashMap;");
                    break;
                default:
                    super.visitInsn(Opcodes.ACONST_NULL);
                    break;
            }
        }
    }
}
