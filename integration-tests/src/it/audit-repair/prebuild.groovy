// FillsCacheTest gets CRLF line endings here, in the fixture's copy, whatever git's checkout made
// of it: its patch must keep them. A byte-for-byte copy of every test source goes to
// prebuild-originals/, for verify.groovy to check that the audit changed none of them.
File base = new File("$basedir")
File tests = new File(base, 'src/test/java')
File originals = new File(base, 'prebuild-originals')
tests.eachFileRecurse(groovy.io.FileType.FILES) { File f ->
    if (f.name == 'FillsCacheTest.java') {
        String text = f.getText('UTF-8').replace('\r\n', '\n').replace('\n', '\r\n')
        f.setBytes(text.getBytes('UTF-8'))
    }
    File copy = new File(originals, tests.toPath().relativize(f.toPath()).toString())
    copy.parentFile.mkdirs()
    copy.setBytes(f.bytes)
}
return true
