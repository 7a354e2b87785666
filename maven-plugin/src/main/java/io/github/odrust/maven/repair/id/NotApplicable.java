package io.github.odrust.maven.repair.id;

/** Why a DexFix rewrite does not apply, found deep inside. */
final class NotApplicable extends Exception {
    NotApplicable(String message) {
        super(message);
    }
}
