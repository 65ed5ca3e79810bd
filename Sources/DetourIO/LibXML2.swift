import CLibXML2

/// Facts about the libxml2 library that the GPX reader is built on.
public enum LibXML2 {
    /// The version of libxml2 linked at run time, as libxml2 spells it (`"20914"` for 2.9.14).
    public static var runtimeVersion: String {
        String(cString: clibxml2_version())
    }

    /// Initializes libxml2 on the calling thread, as libxml2 asks before several threads parse.
    public static func prepareForThreads() {
        XMLStream.prepare()
    }

    /// The linked libxml2 version in dotted form, such as `2.9.14`.
    public static var dottedVersion: String {
        guard let number = Int(runtimeVersion) else { return runtimeVersion }
        return "\(number / 10000).\(number / 100 % 100).\(number % 100)"
    }
}
