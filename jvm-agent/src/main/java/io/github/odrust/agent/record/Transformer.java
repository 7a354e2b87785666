package io.github.odrust.agent.record;

import java.lang.instrument.ClassFileTransformer;
import java.net.URL;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Inserts {@code Recorder.read(id)} before each GETSTATIC of a primitive or immutable-typed field,
 * {@code DUP; Recorder.read(value, id)} after each GETSTATIC of any other reference-typed field, and
 * {@code Recorder.write(id)} before each PUTSTATIC of project classes (and before a few JDK calls
 * that read or change global state).
 * Only straight-line code is inserted, so stack map frames stay valid; max stack is recomputed.
 */
final class Transformer implements ClassFileTransformer {
    static final String RECORDER = "io/github/odrust/agent/record/Recorder";

    private final Options options;
    private final String ownLocation;
    private final Map<String, Boolean> locations = new ConcurrentHashMap<>();
    private final Map<ClassLoader, Boolean> loaders =
            Collections.synchronizedMap(new WeakHashMap<ClassLoader, Boolean>());
    private final Set<String> failed = Collections.newSetFromMap(new ConcurrentHashMap<String, Boolean>());
    private final ThreadLocal<Boolean> busy = new ThreadLocal<>();

    Transformer(Options options) {
        this.options = options;
        this.ownLocation = location(Transformer.class.getProtectionDomain());
    }

    private static String location(ProtectionDomain pd) {
        CodeSource cs = pd == null ? null : pd.getCodeSource();
        URL u = cs == null ? null : cs.getLocation();
        if (u == null) {
            return null;
        }
        java.nio.file.Path p = Options.path(u);
        return p == null ? u.toString() : p.toString();
    }

    @Override
    public byte[] transform(
            ClassLoader loader, String className, Class<?> redefined, ProtectionDomain pd, byte[] bytes) {
        if (loader == null
                || className == null
                || redefined != null
                || bytes == null
                || Options.never(className)
                || busy.get() != null) {
            return null;
        }
        busy.set(Boolean.TRUE);
        try {
            if (!wanted(className, pd) || !seesRecorder(loader)) {
                return null;
            }
            return instrument(bytes, loader);
        } catch (Throwable t) {
            if (failed.add(className)) {
                System.err.println("odrust-agent: cannot instrument " + className.replace('/', '.')
                        + " (left unchanged; its static-field accesses are not recorded): " + t);
            }
            return null;
        } finally {
            busy.remove();
        }
    }

    private boolean wanted(String className, ProtectionDomain pd) {
        String dotted = className.replace('/', '.');
        if (options.excluded(dotted)) {
            return false;
        }
        String loc = location(pd);
        if (loc != null && loc.equals(ownLocation)) {
            return false; // the agent's own classes
        }
        if (options.included(dotted)) {
            return true;
        }
        if (loc == null) {
            return false;
        }
        Boolean in = locations.get(loc);
        if (in == null) {
            in = options.inRoot(pd.getCodeSource().getLocation());
            locations.put(loc, in);
        }
        return in;
    }

    /** Instrumented code must call the Recorder the runner reads, not a copy another loader made. */
    private boolean seesRecorder(ClassLoader loader) {
        Boolean ok = loaders.get(loader);
        if (ok == null) {
            try {
                ok = Class.forName(Recorder.class.getName(), false, loader) == Recorder.class;
            } catch (Throwable t) {
                ok = Boolean.FALSE;
            }
            loaders.put(loader, ok);
        }
        return ok;
    }

    /** The instrumented class, or null when it has nothing to record. */
    static byte[] instrument(byte[] bytes, ClassLoader loader) {
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        ClassInstrumenter ci = new ClassInstrumenter(writer, loader);
        reader.accept(ci, 0);
        return ci.changed ? writer.toByteArray() : null;
    }

    /** Static fields javac, ecj, JaCoCo and friends generate: no test state. */
    static boolean generated(String name) {
        return name.startsWith("$") || name.startsWith("class$") || name.equals("ENUM$VALUES");
    }

    /** A reference-typed field descriptor other than String, boxed and the other immutable types. */
    static boolean mayBeMutable(String desc) {
        return desc.startsWith("[")
                || desc.startsWith("L")
                        && !Fields.immutableType(
                                desc.substring(1, desc.length() - 1).replace('/', '.'));
    }

    static boolean jdkOwner(String owner) {
        return owner.startsWith("java/")
                || owner.startsWith("javax/")
                || owner.startsWith("jdk/")
                || owner.startsWith("sun/")
                || owner.startsWith("com/sun/");
    }

    private static final class ClassInstrumenter extends ClassVisitor {
        private final ClassLoader loader;
        private String name;
        boolean changed;

        ClassInstrumenter(ClassVisitor cv, ClassLoader loader) {
            super(Opcodes.ASM9, cv);
            this.loader = loader;
        }

        @Override
        public void visit(
                int version, int access, String name, String signature, String superName, String[] interfaces) {
            this.name = name;
            super.visit(version, access, name, signature, superName, interfaces);
        }

        @Override
        public MethodVisitor visitMethod(int access, String mname, String desc, String signature, String[] exceptions) {
            MethodVisitor mv = super.visitMethod(access, mname, desc, signature, exceptions);
            return mv == null ? null : new MethodInstrumenter(mv, this, "<clinit>".equals(mname));
        }
    }

    private static final class MethodInstrumenter extends MethodVisitor {
        private final ClassInstrumenter cls;
        private final boolean clinit;

        MethodInstrumenter(MethodVisitor mv, ClassInstrumenter cls, boolean clinit) {
            super(Opcodes.ASM9, mv);
            this.cls = cls;
            this.clinit = clinit;
        }

        @Override
        public void visitFieldInsn(int opcode, String owner, String name, String desc) {
            if ((opcode == Opcodes.GETSTATIC || opcode == Opcodes.PUTSTATIC)
                    && !jdkOwner(owner)
                    && !generated(name)
                    && !Options.never(owner)
                    && !(clinit && owner.equals(cls.name))) {
                // a class initialising (or reading) its own statics in <clinit> is initialisation, not pollution
                int id = Fields.register(owner, name, cls.loader);
                if (opcode == Opcodes.GETSTATIC && mayBeMutable(desc)) {
                    // after the read, with the value: the first read in a test fingerprints it
                    super.visitFieldInsn(opcode, owner, name, desc);
                    super.visitInsn(Opcodes.DUP);
                    push(id);
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, RECORDER, "read", "(Ljava/lang/Object;I)V", false);
                    cls.changed = true;
                    return;
                }
                call(id, opcode == Opcodes.GETSTATIC ? "read" : "write");
            }
            super.visitFieldInsn(opcode, owner, name, desc);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String desc, boolean itf) {
            if (opcode == Opcodes.INVOKESTATIC) {
                jdkCall(owner, name);
            }
            super.visitMethodInsn(opcode, owner, name, desc, itf);
        }

        private void jdkCall(String owner, String name) {
            switch (owner) {
                case "java/lang/System":
                    if (name.equals("setProperty") || name.equals("clearProperty") || name.equals("setProperties")) {
                        call(Fields.SYSTEM_PROPERTIES, "write");
                    } else if (name.equals("getProperty") || name.equals("getProperties")) {
                        call(Fields.SYSTEM_PROPERTIES, "read");
                    }
                    break;
                case "java/lang/Integer":
                    if (name.equals("getInteger")) {
                        call(Fields.SYSTEM_PROPERTIES, "read");
                    }
                    break;
                case "java/lang/Long":
                    if (name.equals("getLong")) {
                        call(Fields.SYSTEM_PROPERTIES, "read");
                    }
                    break;
                case "java/lang/Boolean":
                    if (name.equals("getBoolean")) {
                        call(Fields.SYSTEM_PROPERTIES, "read");
                    }
                    break;
                case "java/util/Locale":
                    if (name.equals("setDefault")) {
                        call(Fields.LOCALE_DEFAULT, "write");
                    } else if (name.equals("getDefault")) {
                        call(Fields.LOCALE_DEFAULT, "read");
                    }
                    break;
                case "java/util/TimeZone":
                    if (name.equals("setDefault")) {
                        call(Fields.TIMEZONE_DEFAULT, "write");
                    } else if (name.equals("getDefault")) {
                        call(Fields.TIMEZONE_DEFAULT, "read");
                    }
                    break;
                default:
                    break;
            }
        }

        private void call(int id, String method) {
            push(id);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, RECORDER, method, "(I)V", false);
            cls.changed = true;
        }

        private void push(int id) {
            if (id >= -1 && id <= 5) {
                super.visitInsn(Opcodes.ICONST_0 + id);
            } else if (id <= Byte.MAX_VALUE) {
                super.visitIntInsn(Opcodes.BIPUSH, id);
            } else if (id <= Short.MAX_VALUE) {
                super.visitIntInsn(Opcodes.SIPUSH, id);
            } else {
                super.visitLdcInsn(id);
            }
        }
    }
}
