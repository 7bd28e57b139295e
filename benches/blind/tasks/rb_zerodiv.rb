# grades.rb -- term report for a course: weighted averages per student and
# per assignment category. Run: ruby grades.rb

Category = Struct.new(:name, :weight, :max_points)

class Gradebook
  attr_reader :categories, :scores

  def initialize
    @categories = {}
    @scores = Hash.new { |h, k| h[k] = Hash.new { |hh, kk| hh[kk] = [] } }
  end

  def add_category(name, weight, max_points)
    @categories[name] = Category.new(name, weight, max_points)
  end

  def record(student, category, points)
    raise ArgumentError, "no category #{category}" unless @categories.key?(category)
    @scores[student][category] << points
  end

  def students
    @scores.keys.sort
  end
end

class Averager
  def initialize(book)
    @book = book
  end

  # mean percentage of one student in one category, integer percent
  def category_percent(student, cat)
    pts = @book.scores[student][cat.name]
    total = pts.sum
    (total * 100) / (pts.size * cat.max_points)
  end

  def weighted(student)
    @book.categories.values.sum do |cat|
      category_percent(student, cat) * cat.weight
    end / 100.0
  end
end

class Report
  LETTERS = { 90 => "A", 80 => "B", 70 => "C", 60 => "D" }.freeze

  def initialize(book)
    @book = book
    @avg = Averager.new(book)
  end

  def letter(pct)
    LETTERS.each { |min, l| return l if pct >= min }
    "F"
  end

  def lines
    @book.students.map do |s|
      pct = @avg.weighted(s)
      format("%-10s %6.1f  %s", s, pct, letter(pct))
    end
  end
end

book = Gradebook.new
book.add_category(:homework, 30, 10)
book.add_category(:quizzes, 20, 5)
book.add_category(:exam, 50, 100)

[
  ["alice", :homework, 9], ["alice", :homework, 10], ["alice", :quizzes, 4],
  ["alice", :exam, 88],
  ["bruno", :homework, 7], ["bruno", :quizzes, 5], ["bruno", :quizzes, 3],
  ["chen", :homework, 10], ["chen", :quizzes, 5], ["chen", :exam, 93],
].each { |s, c, p| book.record(s, c, p) }

puts "Student      Grade"
puts Report.new(book).lines
