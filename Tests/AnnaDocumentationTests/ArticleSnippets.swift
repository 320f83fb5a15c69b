// Generated; see ArticleSnippetsFile.swift.
import Testing
